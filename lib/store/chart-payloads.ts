/**
 * Reading stored chart payloads: the one place a payload written at an older version of its chart
 * is brought to the current shape (docs/architecture.md §Stored payloads evolve). Every reader,
 * the chart route, the server prefetch, the reports, the timeline and the request journey, reads
 * through here, so no component ever sees an older shape.
 */
import { chartByKey, upgradeStoredPayload } from "@/lib/api/chart-catalog";
import { setImmediate as nextTurn } from "node:timers/promises";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { Db } from "./db";
import { rawPgPool } from "./pg-copy";
import { readSqliteBlob } from "./sqlite-blob-read";

/**
 * A stored payload in its chart's current shape, as JSON text (the stored text itself when it was
 * written at the current version), or why it must be recomputed from the run's raw files.
 */
export type ChartRead = { text: string } | { recompute: string };

/**
 * A payload handed to the commit as its JSON text, made where it was computed so that the objects
 * it was made from can go at once, and kept packed (raw deflate, level 1) until the commit reads
 * it back, a few payloads at a time (a multi-turn run's agent-session pages: every session's
 * turns, some 90 MB of JSON at 600,000 requests, were held as objects until the commit and as
 * text beside them there). Stored as its text; `JSON.stringify` of it gives the same text
 * (`toJSON` reads it back).
 */
export class PayloadText {
  private readonly packed: Buffer;
  constructor(text: string) {
    this.packed = deflateRawSync(Buffer.from(text, "utf8"), { level: 1 });
  }
  /** The payload's JSON text, unpacked anew at each read */
  get text(): string {
    return inflateRawSync(this.packed).toString("utf8");
  }
  /** Bytes held until the commit */
  get bytes(): number {
    return this.packed.byteLength;
  }
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** The text a payload is stored as: a `PayloadText`'s own, else its JSON. */
export const storedText = (data: unknown): string =>
  data instanceof PayloadText ? data.text : JSON.stringify(data);

/** The version a payload is written at: its chart's, or 1 for a key no chart defines. */
export const storedVersionOf = (key: string): number => chartByKey(key)?.version ?? 1;

/** One stored row in the current shape of its chart. */
export function currentPayload(row: { key: string; data: string; version: number }): ChartRead {
  const chart = chartByKey(row.key);
  if (!chart || row.version >= chart.version) return { text: row.data };
  const read = upgradeStoredPayload(chart, JSON.parse(row.data), row.version);
  return "recompute" in read ? read : { text: JSON.stringify(read.payload) };
}

/** A run's payload under `key`, in its chart's current shape; undefined when the run has none. */
export async function getChartData(db: Db, runId: string, key: string): Promise<ChartRead | undefined> {
  const row = await db
    .selectFrom("chart_data")
    .select(["key", "data", "version"])
    .where((eb) => eb.and({ run_id: runId, key }))
    .executeTakeFirst();
  return row && currentPayload(row);
}

/** A run's stored row under `key` as written, with the versions it was written at; undefined: none. */
export async function getChartRow(
  db: Db,
  runId: string,
  key: string,
): Promise<{ key: string; data: string; version: number; compute_version: number } | undefined> {
  const row = await db
    .selectFrom("chart_data")
    .select(["key", "data", "version", "compute_version"])
    .where((eb) => eb.and({ run_id: runId, key }))
    .executeTakeFirst();
  return row && { ...row, version: Number(row.version), compute_version: Number(row.compute_version) };
}

/**
 * Stores a payload computed on read from the run's columnar file `file` (name and content hash)
 * as the run's payload under `key`, replacing any, at the given chart and compute versions; only
 * while the run is still `ready` as committed at `summaryReadyAt` and still names that file. A
 * re-ingest that began meanwhile (status `ingesting`, its rows cleared, a new file) or a deletion
 * gets nothing. The run's row is locked first on PostgreSQL, so a re-ingest marking the run waits
 * for this write (and then clears it with the rest) or this write sees the run marked; two
 * instances storing the same payload write one after the other. True when stored.
 */
export async function storeComputedPayload(
  db: Db,
  runId: string,
  key: string,
  payload: { text: string; version: number; computeVersion: number },
  seen: { summaryReadyAt: number | null; file: string; sha256: string },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    let runQuery = trx.selectFrom("runs").select(["status", "summary_ready_at"]).where("id", "=", runId);
    if (rawPgPool(db)) runQuery = runQuery.forUpdate();
    const run = await runQuery.executeTakeFirst();
    if (run?.status !== "ready" || Number(run.summary_ready_at) !== Number(seen.summaryReadyAt)) return false;
    const file = await trx
      .selectFrom("run_column_files")
      .select("sha256")
      .where("run_id", "=", runId)
      .where("name", "=", seen.file)
      .executeTakeFirst();
    if (file?.sha256 !== seen.sha256) return false;
    await trx.deleteFrom("chart_data").where("run_id", "=", runId).where("key", "=", key).execute();
    await trx
      .insertInto("chart_data")
      .values({
        run_id: runId,
        key,
        data: payload.text,
        version: payload.version,
        compute_version: payload.computeVersion,
      })
      .execute();
    return true;
  });
}

/** A payload's text in the current shape, or undefined when the run has none or it must be recomputed. */
export async function getChartText(db: Db, runId: string, key: string): Promise<string | undefined> {
  const read = await getChartData(db, runId, key);
  return read && "text" in read ? read.text : undefined;
}

/** Bytes decoded a turn by `getLargeChartText`. */
const DECODE_PIECE = 1 << 20;

/**
 * `getChartText` for a payload that may be tens of MB (a run's Dynamo spans, 30 MB at 20,000
 * traced requests): on SQLite the text is read on a worker thread (./sqlite-blob-read.ts) and
 * decoded a MB a turn, where better-sqlite3 would read and decode it whole on the main thread.
 * A payload stored at an older version of its chart is upgraded as `getChartText` does it.
 */
export async function getLargeChartText(db: Db, runId: string, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("chart_data")
    .select("version")
    .where((eb) => eb.and({ run_id: runId, key }))
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.version < storedVersionOf(key)) return getChartText(db, runId, key);
  const bytes = await readSqliteBlob(
    db,
    "select cast(data as blob) from chart_data where run_id = ? and key = ?",
    [runId, key],
  );
  if (bytes === undefined) return getChartText(db, runId, key);
  if (bytes === null) return undefined;
  const decoder = new TextDecoder();
  let text = "";
  for (let from = 0; from < bytes.length; from += DECODE_PIECE) {
    if (from > 0) await nextTurn();
    text += decoder.decode(bytes.subarray(from, from + DECODE_PIECE), { stream: true });
  }
  return text + decoder.decode();
}

/**
 * Several payloads of one run at once, for the exports that draw every view: those the run has
 * under the given keys, in their charts' current shape. A payload that must be recomputed is left
 * out, as one the run does not have.
 */
export async function chartPayloads(
  db: Db,
  runId: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom("chart_data")
    .select(["key", "data", "version"])
    .where("run_id", "=", runId)
    .where("key", "in", [...keys])
    .execute();
  const out = new Map<string, string>();
  for (const r of rows) {
    const read = currentPayload(r);
    if ("text" in read) out.set(r.key, read.text);
  }
  return out;
}
