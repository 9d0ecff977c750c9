import type { BinderyDb } from '../../db/types.ts';
import { getOrCreateSetting } from '../../db/store/settings.ts';
import { b64url } from '../encoding.ts';

/**
 * The database's random secret named `name` (32 bytes, base64url), made on first use and kept in
 * settings: every process on the same database signs and checks with the same one.
 */
export function databaseSecret(db: BinderyDb, name: string): Promise<string> {
  return getOrCreateSetting(db, name, () => b64url(crypto.getRandomValues(new Uint8Array(32))));
}
