import { callTool } from '../../tools/call.ts';
import { TOOLS } from '../../tools/registry.ts';
import type { WebContext } from '../route.ts';

export interface SpaceItem {
  id: string;
  slug: string;
  name: string;
  visibility: 'private' | 'public';
  personal: boolean;
  owner: string;
  access: 'owner' | 'read' | 'comment';
  bindingCount: number;
}

/** The spaces a person can read, as list_spaces shows them (first 100). */
export async function spaceOptions(ctx: WebContext): Promise<SpaceItem[]> {
  return (await callTool(ctx.tools(), TOOLS.list_spaces, { limit: 100 })).spaces;
}

/** The spaces a person owns (where they may write). */
export async function writableSpaces(ctx: WebContext): Promise<SpaceItem[]> {
  return (await spaceOptions(ctx)).filter((s) => s.access === 'owner');
}
