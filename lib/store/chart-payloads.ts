/**
 * Reading stored chart payloads: the one place a payload written at an older version of its chart
 * is brought to the current shape (docs/architecture.md §Stored payloads evolve). Every reader,
 * the chart route, the server prefetch, the reports, the timeline and the request journey, reads
 * through here, so no component ever sees an older shape.
 */
import { chartByKey, upgradeStoredPayload } from "@/lib/api/chart-catalog";
import type { Db } from "./db";

/**
 * A stored payload in its chart's current shape, as JSON text (the stored text itself when it was
 * written at the current version), or why it must be recomputed from the run's raw files.
 */
export type ChartRead = { text: string } | { recompute: string };

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

/** A payload's text in the current shape, or undefined when the run has none or it must be recomputed. */
export async function getChartText(db: Db, runId: string, key: string): Promise<string | undefined> {
  const read = await getChartData(db, runId, key);
  return read && "text" in read ? read.text : undefined;
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
