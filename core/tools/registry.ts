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

/** A registry over a list of tools (the default is all of them). */
export function createRegistry(tools: readonly AnyTool[] = ALL_TOOLS): ToolRegistry {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return { all: tools, get: (name) => byName.get(name) };
}
