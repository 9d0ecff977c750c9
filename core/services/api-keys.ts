import type { BinderyDb } from '../../db/types.ts';
import { insertApiKey, listApiKeys, liveApiKey, revokeApiKey } from '../../db/store/api-keys.ts';

/** A key row to store: its hash only, never the key. */
export type ApiKeyRecord = Parameters<typeof insertApiKey>[1];

/** Stores a minted key's hash for its user. */
export function storeApiKey(db: BinderyDb, row: ApiKeyRecord): Promise<void> {
  return insertApiKey(db, row);
}

/** The live (unrevoked) key with this id, with its user: what a bearer key is checked against. */
export function liveKey(db: BinderyDb, id: string): Promise<{ keyHash: string; userId: string; handle: string } | undefined> {
  return liveApiKey(db, id);
}

/** Revokes a key at once (the next request with it is refused); false when no live key has that id. */
export function revokeKey(db: BinderyDb, id: string, now: number): Promise<boolean> {
  return revokeApiKey(db, id, now);
}

/** Every key (without hashes), newest first: `bindery keys list`, an operator's command. */
export function listKeys(db: BinderyDb) {
  return listApiKeys(db);
}
