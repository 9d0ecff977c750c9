import type { ToolRegistry } from '../context';
import type { AnyTool } from './define';
import { createBindingTool } from './binding/create_binding';
import { getBindingTool } from './binding/get_binding';
import { getBindingsTool } from './binding/get_bindings';
import { updateBindingTool } from './binding/update_binding';
import { deleteBindingTool } from './binding/delete_binding';
import { listBindingsTool } from './binding/list_bindings';
import { searchBindingsTool } from './binding/search_bindings';
import { listVersionsTool } from './version/list_versions';
import { getVersionTool } from './version/get_version';
// -- issue 3 imports (sets, spaces, shares, comments, help, whoami) --
import { createSetTool } from './set/create_set';
import { getSetTool } from './set/get_set';
import { listSetsTool } from './set/list_sets';
import { updateSetTool } from './set/update_set';
import { deleteSetTool } from './set/delete_set';
import { editSetItemsTool } from './set/edit_set_items';
import { getSetContextTool } from './set/get_set_context';
import { listSpacesTool } from './space/list_spaces';
import { createSpaceTool } from './space/create_space';
import { createShareTool } from './share/create_share';
import { listSharesTool } from './share/list_shares';
import { revokeShareTool } from './share/revoke_share';
import { addCommentTool } from './comment/add_comment';
import { listCommentsTool } from './comment/list_comments';
import { deleteCommentTool } from './comment/delete_comment';
import { helpTool } from './utility/help';
import { whoamiTool } from './utility/whoami';
// -- end issue 3 imports --
// -- issue 4 imports (search_tools, list_available_tools, get_active_toolset, proxy tools) --
import { searchToolsTool } from './utility/search_tools';
import { listAvailableToolsTool } from './utility/list_available_tools';
import { getActiveToolsetTool } from './utility/get_active_toolset';
import { listToolCategoriesTool } from './proxy/list_tool_categories';
import { invokeToolTool } from './proxy/invoke_tool';
// -- end issue 4 imports --

/** Every tool, in the order `tools/list` shows them (CONTRACT §4). */
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
  // -- issue 3 tools --
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
  // -- end issue 3 tools --
  // -- issue 4 tools --
  searchToolsTool,
  listAvailableToolsTool,
  getActiveToolsetTool,
  listToolCategoriesTool,
  invokeToolTool,
  // -- end issue 4 tools --
];

/** A registry over a list of tools (the default is all of them). */
export function createRegistry(tools: readonly AnyTool[] = ALL_TOOLS): ToolRegistry {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return { all: tools, get: (name) => byName.get(name) };
}
