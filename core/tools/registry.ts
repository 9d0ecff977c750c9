import type { ToolRegistry } from '../context.ts';
import type { AnyTool } from './define.ts';
import { createBindingTool } from './binding/create_binding.ts';
import { getBindingTool } from './binding/get_binding.ts';
import { getBindingsTool } from './binding/get_bindings.ts';
import { updateBindingTool } from './binding/update_binding.ts';
import { deleteBindingTool } from './binding/delete_binding.ts';
import { listBindingsTool } from './binding/list_bindings.ts';
import { searchBindingsTool } from './binding/search_bindings.ts';
import { listVersionsTool } from './version/list_versions.ts';
import { getVersionTool } from './version/get_version.ts';
import { createSetTool } from './set/create_set.ts';
import { getSetTool } from './set/get_set.ts';
import { listSetsTool } from './set/list_sets.ts';
import { updateSetTool } from './set/update_set.ts';
import { deleteSetTool } from './set/delete_set.ts';
import { editSetItemsTool } from './set/edit_set_items.ts';
import { getSetContextTool } from './set/get_set_context.ts';
import { listSpacesTool } from './space/list_spaces.ts';
import { createSpaceTool } from './space/create_space.ts';
import { createShareTool } from './share/create_share.ts';
import { listSharesTool } from './share/list_shares.ts';
import { revokeShareTool } from './share/revoke_share.ts';
import { addCommentTool } from './comment/add_comment.ts';
import { listCommentsTool } from './comment/list_comments.ts';
import { deleteCommentTool } from './comment/delete_comment.ts';
import { helpTool } from './utility/help.ts';
import { whoamiTool } from './utility/whoami.ts';
import { searchToolsTool } from './utility/search_tools.ts';
import { listAvailableToolsTool } from './utility/list_available_tools.ts';
import { getActiveToolsetTool } from './utility/get_active_toolset.ts';
import { listToolCategoriesTool } from './proxy/list_tool_categories.ts';
import { invokeToolTool } from './proxy/invoke_tool.ts';

/** Every tool, in the order `tools/list` shows them (docs/reference/tools.md). */
export const ALL_TOOLS: readonly AnyTool[] = [
  createBindingTool,
  getBindingTool,
  getBindingsTool,
  updateBindingTool,
  deleteBindingTool,
  listBindingsTool,
  searchBindingsTool,
  listVersionsTool,
  getVersionTool,
  createSetTool,
  getSetTool,
  listSetsTool,
  updateSetTool,
  deleteSetTool,
  editSetItemsTool,
  getSetContextTool,
  listSpacesTool,
  createSpaceTool,
  createShareTool,
  listSharesTool,
  revokeShareTool,
  addCommentTool,
  listCommentsTool,
  deleteCommentTool,
  helpTool,
  whoamiTool,
  searchToolsTool,
  listAvailableToolsTool,
  getActiveToolsetTool,
  listToolCategoriesTool,
  invokeToolTool,
];

/**
 * The tools by name, each keeping its own input and output types: in-process callers (REST, the web
 * app) call through it with callTool (core/tools/call.ts). tests/core/tool-calls.test.ts checks that
 * every key is its tool's name and that it holds every tool.
 */
export const TOOLS = {
  create_binding: createBindingTool,
  get_binding: getBindingTool,
  get_bindings: getBindingsTool,
  update_binding: updateBindingTool,
  delete_binding: deleteBindingTool,
  list_bindings: listBindingsTool,
  search_bindings: searchBindingsTool,
  list_versions: listVersionsTool,
  get_version: getVersionTool,
  create_set: createSetTool,
  get_set: getSetTool,
  list_sets: listSetsTool,
  update_set: updateSetTool,
  delete_set: deleteSetTool,
  edit_set_items: editSetItemsTool,
  get_set_context: getSetContextTool,
  list_spaces: listSpacesTool,
  create_space: createSpaceTool,
  create_share: createShareTool,
  list_shares: listSharesTool,
  revoke_share: revokeShareTool,
  add_comment: addCommentTool,
  list_comments: listCommentsTool,
  delete_comment: deleteCommentTool,
  help: helpTool,
  whoami: whoamiTool,
  search_tools: searchToolsTool,
  list_available_tools: listAvailableToolsTool,
  get_active_toolset: getActiveToolsetTool,
  list_tool_categories: listToolCategoriesTool,
  invoke_tool: invokeToolTool,
} as const;

/** A registry over a list of tools (the default is all of them). */
export function createRegistry(tools: readonly AnyTool[] = ALL_TOOLS): ToolRegistry {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return { all: tools, get: (name) => byName.get(name) };
}
