import { sql } from 'drizzle-orm';
import type { BinderyDb } from '../types.ts';
import { runBatch } from './guarded.ts';

// Stored embeddings (db/schema/vectors.ts): one per binding, for its current version and one model.

/** Float32 vector ↔ the bytes of an F32_BLOB (little-endian float32, libSQL's own layout). */
export function vectorBytes(v: Float32Array): Uint8Array {
  const out = new Uint8Array(v.length * 4);
  const view = new DataView(out.buffer);
  v.forEach((x, i) => view.setFloat32(i * 4, x, true));
  return out;
}

export function bytesVector(b: ArrayBuffer | Uint8Array): Float32Array {
  const bytes = b instanceof Uint8Array ? b : new Uint8Array(b);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** Live bindings (of `only`, when given) whose current version has no vector for `model`, with what is embedded, oldest first. */
export async function bindingsWithoutVector(db: BinderyDb, model: string, limit: number, only?: string[]) {
  const among = only
    ? sql`AND bindings.id IN (${sql.join(
        only.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const rows = await db.all<{
    bindingId: string;
    versionId: string;
    name: string;
    summary: string;
    keyPoints: string;
    content: string;
  }>(sql`
    SELECT bindings.id AS bindingId, versions.id AS versionId, versions.name AS name, versions.summary AS summary, versions.key_points AS keyPoints, versions.content AS content
    FROM bindings JOIN versions ON versions.binding_id = bindings.id AND versions.number = bindings.current_version
    LEFT JOIN binding_vectors bv ON bv.binding_id = bindings.id AND bv.version_id = versions.id AND bv.model = ${model}
    WHERE bindings.deleted_at IS NULL AND bv.binding_id IS NULL ${among}
    ORDER BY bindings.rowid LIMIT ${limit}`);
  return rows.map((r) => ({ ...r, keyPoints: JSON.parse(r.keyPoints) as string[] }));
}

/** Stores (or replaces) the vectors of bindings at the given versions. */
export async function saveVectors(
  db: BinderyDb,
  model: string,
  rows: { bindingId: string; versionId: string; vector: Float32Array }[],
  now: number,
): Promise<void> {
  if (!rows.length) return;
  await runBatch(
    db,
    rows.map((r) =>
      db.run(sql`INSERT INTO binding_vectors (binding_id, version_id, model, dims, vector, created_at)
        VALUES (${r.bindingId}, ${r.versionId}, ${model}, ${r.vector.length}, ${vectorBytes(r.vector)}, ${now})
        ON CONFLICT (binding_id) DO UPDATE SET version_id = excluded.version_id, model = excluded.model, dims = excluded.dims, vector = excluded.vector, created_at = excluded.created_at`),
    ),
  );
}

/** The current vectors (this model, current version) of the given bindings, by binding id. */
export async function currentVectors(db: BinderyDb, model: string, bindingIds: string[]): Promise<Map<string, Float32Array>> {
  if (!bindingIds.length) return new Map();
  const rows = await db.all<{ id: string; vector: ArrayBuffer | Uint8Array }>(sql`
    SELECT bv.binding_id AS id, bv.vector AS vector FROM binding_vectors bv
    JOIN bindings ON bindings.id = bv.binding_id
    JOIN versions ON versions.binding_id = bindings.id AND versions.number = bindings.current_version
    WHERE bv.binding_id IN (${sql.join(
      bindingIds.map((id) => sql`${id}`),
      sql`, `,
    )}) AND bv.model = ${model} AND bv.version_id = versions.id`);
  return new Map(rows.map((r) => [r.id, bytesVector(r.vector)]));
}
