/**
 * A run's chart payload as the chart route and the server prefetch read it (docs/architecture.md
 * §How a chart is computed). A chart computed from per-request columns alone
 * (lib/metrics/aiperf-column-charts.ts) is served as stored when it was stored at its chart's
 * current version and the current compute version; else, for a ready run with an aiperf request
 * file, it is computed from the file's columns by the function the ingest calls, stored
 * (`storeComputedPayload`) and served, so a later read does not touch DuckDB. Every other chart,
 * and a run without the file (imported tools' runs, runs kept as rows) or not ready (a re-ingest
 * under way), reads as stored, as `getChartData` gives it.
 */
import {
  AIPERF_COLUMN_COMPUTE_VERSION,
  aiperfColumnChart,
  type ColumnChart,
  withRecordsSample,
} from "@/lib/metrics/aiperf-column-charts";
import { runOriginMs } from "@/lib/metrics/aiperf-run-result";
import {
  FLAG_CANCELLED,
  FLAG_ERROR,
  FLAG_WARMUP,
  RequestLog,
  type RequestColumn,
} from "@/lib/metrics/requests-log";
import {
  type ChartRead,
  currentPayload,
  getChartRow,
  storeComputedPayload,
} from "@/lib/store/chart-payloads";
import { AIPERF_REQUESTS_FILE } from "@/lib/store/columnar/aiperf-request-file";
import {
  type AiperfNumberColumn,
  readAiperfRequestColumns,
} from "@/lib/store/columnar/aiperf-request-columns";
import type { Db } from "@/lib/store/db";
import { getRun } from "@/lib/store/runs-repo";
import { inTurns } from "./in-turns";

/** The request file's column of each request-log column. */
const FILE_COLUMN: Record<RequestColumn, AiperfNumberColumn> = {
  startMs: "start_ms",
  endMs: "end_ms",
  ttftMs: "ttft_ms",
  e2eMs: "e2e_ms",
  itlMs: "itl_ms",
  inputTokens: "input_tokens",
  outputTokens: "output_tokens",
};

/**
 * Computations under way, by store, run, chart and the run's commit: two reads of a chart that
 * is not stored wait for one computation (another instance on the same PostgreSQL computes its
 * own; both store the same payload, one after the other).
 */
const computing = new WeakMap<Db, Map<string, Promise<string | null>>>();

/** The payload under `key` of run `runId`, in its chart's current shape; undefined: none. */
export async function readRunChart(db: Db, runId: string, key: string): Promise<ChartRead | undefined> {
  const row = await getChartRow(db, runId, key);
  const stored = row && currentPayload(row);
  const spec = aiperfColumnChart(key);
  if (!spec || isCurrent(spec, row)) return stored;
  const run = await getRun(db, runId);
  // A run being (re-)ingested answers as stored: its rows and file are being replaced.
  if (run?.status !== "ready") return stored;
  const text = await computeOnce(db, runId, spec, run);
  return text === null ? stored : { text };
}

function computeOnce(
  db: Db,
  runId: string,
  spec: ColumnChart,
  run: { summary: string | null; summary_ready_at: number | null },
): Promise<string | null> {
  let byKey = computing.get(db);
  if (!byKey) computing.set(db, (byKey = new Map()));
  const id = `${runId}\n${spec.chart.key}\n${run.summary_ready_at}`;
  let job = byKey.get(id);
  if (!job) {
    job = computeAndStore(db, runId, spec, run).finally(() => byKey.delete(id));
    byKey.set(id, job);
  }
  return job;
}

/** Whether a stored row is of the chart's current version, computed by the current code. */
const isCurrent = (spec: ColumnChart, row: { version: number; compute_version: number } | undefined) =>
  row !== undefined &&
  row.version >= spec.chart.version &&
  row.compute_version >= AIPERF_COLUMN_COMPUTE_VERSION;

/** The payload from the run's request file, stored when the run is still as read; null: no file. */
async function computeAndStore(
  db: Db,
  runId: string,
  spec: ColumnChart,
  run: { summary: string | null; summary_ready_at: number | null },
): Promise<string | null> {
  // A computation that ended after this read looked, and stored its payload: that one.
  const row = await getChartRow(db, runId, spec.chart.key);
  if (isCurrent(spec, row)) return row!.data;
  const file = await readAiperfRequestColumns(
    db,
    runId,
    spec.columns.map((c) => FILE_COLUMN[c]),
  );
  if (!file) return null;
  const flags = new Uint8Array(file.length);
  for (let i = 0; i < file.length; i++)
    flags[i] =
      (file.warmup[i] ? FLAG_WARMUP : 0) |
      (file.failed[i] ? FLAG_ERROR : 0) |
      (file.cancelled[i] ? FLAG_CANCELLED : 0);
  const log = RequestLog.fromColumns(
    Object.fromEntries(spec.columns.map((c) => [c, file.numbers[FILE_COLUMN[c]]])),
    flags,
  );
  // The file's times are counted from the run's first request already: its origin is 0.
  const payload = await inTurns(spec.compute(log, runOriginMs(log)));
  const text = JSON.stringify(withRecordsSample(payload as object, recordsSampleOf(run.summary)));
  await storeComputedPayload(
    db,
    runId,
    spec.chart.key,
    { text, version: spec.chart.version, computeVersion: AIPERF_COLUMN_COMPUTE_VERSION },
    { summaryReadyAt: run.summary_ready_at, file: AIPERF_REQUESTS_FILE, sha256: file.sha256 },
  );
  return text;
}

/** The stored summary's word that the records are a sample of what aiperf summarised. */
function recordsSampleOf(summary: string | null): { records: number; described: number } | null {
  if (!summary) return null;
  const requests = (JSON.parse(summary) as { requests?: { recordsSample?: unknown } | null }).requests;
  const s = requests?.recordsSample;
  return typeof s === "object" && s !== null ? (s as { records: number; described: number }) : null;
}
