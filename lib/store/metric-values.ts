/**
 * A run's per-request values of each verdict metric as one blob (docs/metrics.md §Regressions):
 * the values ascending, 8 bytes each, little-endian. A verdict on a million-request run reads one
 * 8 MB row per metric instead of a million rows, and needs no sort.
 */
import { endianness } from "node:os";
import { sql } from "kysely";
import type { Db } from "./db";
import { rawSqlite } from "./raw-sqlite";

const LITTLE_ENDIAN = endianness() === "LE";

/**
 * The bytes of `sorted` as stored: a view of its memory where the machine is little-endian. A
 * Buffer, which both drivers bind as a blob.
 */
export function encodeMetricValues(sorted: Float64Array): Buffer {
  if (LITTLE_ENDIAN) return Buffer.from(sorted.buffer, sorted.byteOffset, sorted.byteLength);
  const out = Buffer.alloc(sorted.length * 8);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < sorted.length; i++) view.setFloat64(i * 8, sorted[i], true);
  return out;
}

/** The stored values, or null when the bytes are not `count` float64s. */
export function decodeMetricValues(bytes: Uint8Array, count: number): Float64Array | null {
  if (bytes.byteLength !== count * 8) return null;
  if (!LITTLE_ENDIAN) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return Float64Array.from({ length: count }, (_, i) => view.getFloat64(i * 8, true));
  }
  // Both drivers hand a large blob over in a buffer of its own, aligned; a copy otherwise.
  if (bytes.byteOffset % 8 === 0) return new Float64Array(bytes.buffer, bytes.byteOffset, count);
  const out = new Float64Array(count);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}

/**
 * Replaces the run's stored values with `values` (metric → ascending values). Called inside the
 * transaction that commits the run, so the blobs and the `ready` status land together.
 */
export async function writeMetricValues(
  trx: Db,
  runId: string,
  values: ReadonlyMap<string, Float64Array>,
): Promise<void> {
  await trx.deleteFrom("run_metric_values").where("run_id", "=", runId).execute();
  // One statement a metric: each carries up to tens of megabytes.
  for (const [metric, sorted] of values)
    await trx
      .insertInto("run_metric_values")
      .values({ run_id: runId, metric, count: sorted.length, values: encodeMetricValues(sorted) })
      .execute();
}

/**
 * The stored values of `metric` for each of the runs that have them (ascending). A run missing
 * from the map was ingested before values were stored: its request rows are the source.
 */
export async function readMetricValues(
  db: Db,
  runIds: readonly string[],
  metric: string,
): Promise<Map<string, Float64Array>> {
  const out = new Map<string, Float64Array>();
  if (runIds.length === 0) return out;
  const query = db
    .selectFrom("run_metric_values")
    .select(["run_id", "count"])
    .where("run_id", "in", [...runIds])
    .where("metric", "=", metric);
  if (rawSqlite(db)) {
    for (const r of await query.select("values").execute()) {
      const values = decodeMetricValues(r.values, Number(r.count));
      if (values) out.set(r.run_id, values);
    }
    return out;
  }
  // PostgreSQL sends bytea as hex text, two characters a byte; base64 is a third smaller and
  // took half the client's time to decode (8 MB: 25 against 55 ms of CPU).
  const rows = await query.select(sql<string>`encode(${sql.ref("values")}, 'base64')`.as("b64")).execute();
  for (const r of rows) {
    const values = decodeMetricValues(Buffer.from(r.b64, "base64"), Number(r.count));
    if (values) out.set(r.run_id, values);
  }
  return out;
}
