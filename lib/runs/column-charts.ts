/**
 * A run's chart payload as the chart route and the server prefetch read it (docs/architecture.md
 * §How a chart is computed). A chart computed from per-request columns alone (one family per run
 * file: lib/metrics/aiperf-column-charts.ts, lib/metrics/trtllm-column-charts.ts) is served as
 * stored when it was stored at its chart's current version and the current compute version; else,
 * for a ready run with the family's request file, it is computed from the file's columns by the
 * function the ingest calls, stored (`storeComputedPayload`) and served, so a later read does not
 * touch DuckDB. Every other chart, and a run without the file (imported tools' runs, runs kept as
 * rows, a TensorRT-LLM file written before the columns a chart reads) or not ready (a re-ingest
 * under way), reads as stored, as `getChartData` gives it.
 */
import type { ChartDef } from "@/lib/api/chart-catalog";
import {
  AIPERF_COLUMN_CHARTS,
  AIPERF_COLUMN_COMPUTE_VERSION,
  aiperfColumnChart,
  type ColumnChart,
  withRecordsSample,
} from "@/lib/metrics/aiperf-column-charts";
import {
  TRTLLM_COLUMN_CHARTS,
  TRTLLM_COLUMN_COMPUTE_VERSION,
  trtllmColumnChart,
  type TrtllmColumnChart,
  type TrtllmColumnInput,
  type TrtllmRequestColumns,
} from "@/lib/metrics/trtllm-column-charts";
import { TrtllmLatencyColumns } from "@/lib/metrics/trtllm-latency";
import { type BreakdownMode, SegmentColumns, type SegmentValue } from "@/lib/metrics/time-breakdown";
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
  chartPayloads,
  currentPayload,
  getChartRow,
  storeComputedPayload,
} from "@/lib/store/chart-payloads";
import { AIPERF_REQUESTS_FILE } from "@/lib/store/columnar/aiperf-request-file";
import {
  type AiperfNumberColumn,
  readAiperfRequestColumns,
} from "@/lib/store/columnar/aiperf-request-columns";
import { TRTLLM_REQUESTS_FILE } from "@/lib/store/columnar/trtllm-request-file";
import { readTrtllmRequestColumns, type TrtllmFileColumn } from "@/lib/store/columnar/trtllm-request-columns";
import type { Db } from "@/lib/store/db";
import { getRun } from "@/lib/store/runs-repo";
import { inTurns } from "./in-turns";

/** What a read of a column chart needs of the run: its summary and when it was committed. */
type RunSeen = { summary: string | null; summary_ready_at: number | null };

/**
 * A family of charts computed from one run file's columns: which of its charts a key names, the
 * compute version they are stored at, the file, and the payload of one chart from the file (null:
 * the run has no such file, or one without the chart's columns).
 */
interface ColumnFamily<S> {
  chart(key: string): S | undefined;
  /** Every chart key of the family */
  keys: readonly string[];
  def(spec: S): ChartDef;
  computeVersion: number;
  file: string;
  compute(db: Db, runId: string, spec: S, run: RunSeen): Promise<{ payload: object; sha256: string } | null>;
}

/** The aiperf request file's column of each request-log column. */
const AIPERF_FILE_COLUMN: Record<RequestColumn, AiperfNumberColumn> = {
  startMs: "start_ms",
  endMs: "end_ms",
  ttftMs: "ttft_ms",
  e2eMs: "e2e_ms",
  itlMs: "itl_ms",
  inputTokens: "input_tokens",
  outputTokens: "output_tokens",
};

const aiperfFamily: ColumnFamily<ColumnChart> = {
  chart: aiperfColumnChart,
  keys: AIPERF_COLUMN_CHARTS.map((c) => c.chart.key),
  def: (spec) => spec.chart,
  computeVersion: AIPERF_COLUMN_COMPUTE_VERSION,
  file: AIPERF_REQUESTS_FILE,
  async compute(db, runId, spec, run) {
    const file = await readAiperfRequestColumns(
      db,
      runId,
      spec.columns.map((c) => AIPERF_FILE_COLUMN[c]),
    );
    if (!file) return null;
    const flags = new Uint8Array(file.length);
    for (let i = 0; i < file.length; i++)
      flags[i] =
        (file.warmup[i] ? FLAG_WARMUP : 0) |
        (file.failed[i] ? FLAG_ERROR : 0) |
        (file.cancelled[i] ? FLAG_CANCELLED : 0);
    const log = RequestLog.fromColumns(
      Object.fromEntries(spec.columns.map((c) => [c, file.numbers[AIPERF_FILE_COLUMN[c]]])),
      flags,
    );
    // The file's times are counted from the run's first request already: its origin is 0.
    const payload = await inTurns(spec.compute(log, runOriginMs(log)));
    return {
      payload: withRecordsSample(payload as object, recordsSampleOf(run.summary)),
      sha256: file.sha256,
    };
  },
};

/** The TensorRT-LLM request file's columns each input of its column charts is made from. */
const TRTLLM_FILE_COLUMNS: Record<
  TrtllmColumnInput,
  { numbers: TrtllmFileColumn[]; texts: TrtllmFileColumn[] }
> = {
  arrivalMs: { numbers: ["arrival_ms"], texts: [] },
  latency: { numbers: ["ttft_ms", "e2e_ms", "output_tokens", "one_response"], texts: [] },
  kvBandwidthGBps: { numbers: ["kv_bandwidth_gbps"], texts: [] },
  segments: { numbers: [], texts: ["mode", "segments_json"] },
};

const trtllmFamily: ColumnFamily<TrtllmColumnChart> = {
  chart: trtllmColumnChart,
  keys: TRTLLM_COLUMN_CHARTS.map((c) => c.chart.key),
  def: (spec) => spec.chart,
  computeVersion: TRTLLM_COLUMN_COMPUTE_VERSION,
  file: TRTLLM_REQUESTS_FILE,
  async compute(db, runId, spec) {
    const wanted = spec.inputs.map((i) => TRTLLM_FILE_COLUMNS[i]);
    const file = await readTrtllmRequestColumns(
      db,
      runId,
      wanted.flatMap((w) => w.numbers),
      wanted.flatMap((w) => w.texts),
    );
    if (!file) return null;
    const payload = await inTurns(spec.compute(trtllmColumnsOf(file.length, file.numbers, file.texts)));
    return { payload: payload as object, sha256: file.sha256 };
  },
};

/**
 * The columns the summary kept, made from the file's: the same numbers (the file holds the
 * doubles the summary computed), each request's latency set as the summary set it. What was not
 * read stays empty; the chart reads only what it named.
 */
function trtllmColumnsOf(
  n: number,
  numbers: Partial<Record<TrtllmFileColumn, Float64Array>>,
  texts: Partial<Record<TrtllmFileColumn, Array<string | null>>>,
): TrtllmRequestColumns {
  const empty = new Float64Array(0);
  const latency = new TrtllmLatencyColumns(numbers.ttft_ms ? n : 0);
  const { ttft_ms: ttft, e2e_ms: e2e, output_tokens: tokens, one_response: one } = numbers;
  if (ttft && e2e && tokens && one)
    for (let i = 0; i < n; i++)
      latency.set(i, orNull(ttft[i]), orNull(e2e[i]), orNull(tokens[i]), one[i] === 1);
  const modes = texts.mode;
  const segmentsJson = texts.segments_json;
  const mode: BreakdownMode = modes?.[0] === "disaggregated" ? "disaggregated" : "aggregated";
  const segments = new SegmentColumns(mode, segmentsJson ? n : 0);
  if (segmentsJson)
    for (let i = 0; i < n; i++) {
      const json = segmentsJson[i];
      if (json !== null) segments.set(i, JSON.parse(json) as SegmentValue[]);
    }
  return {
    arrivalMs: numbers.arrival_ms ?? empty,
    latency,
    kvBandwidthGBps: numbers.kv_bandwidth_gbps ?? empty,
    segments,
  };
}

const orNull = (v: number) => (Number.isNaN(v) ? null : v);

/** Every family of column charts; a key names a chart of one at most. */
const FAMILIES: ReadonlyArray<ColumnFamily<unknown>> = [
  aiperfFamily as ColumnFamily<unknown>,
  trtllmFamily as ColumnFamily<unknown>,
];

/** The family and chart a key names, if it names a column chart. */
function columnChart(key: string): { family: ColumnFamily<unknown>; spec: unknown } | undefined {
  for (const family of FAMILIES) {
    const spec = family.chart(key);
    if (spec) return { family, spec };
  }
  return undefined;
}

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
  const found = columnChart(key);
  if (!found || isCurrent(found.family, found.spec, row)) return stored;
  const run = await getRun(db, runId);
  // A run being (re-)ingested answers as stored: its rows and file are being replaced.
  if (run?.status !== "ready") return stored;
  const text = await computeOnce(db, runId, found.family, found.spec, run);
  return text === null ? stored : { text };
}

function computeOnce<S>(
  db: Db,
  runId: string,
  family: ColumnFamily<S>,
  spec: S,
  run: RunSeen,
): Promise<string | null> {
  let byKey = computing.get(db);
  if (!byKey) computing.set(db, (byKey = new Map()));
  const id = `${runId}\n${family.def(spec).key}\n${run.summary_ready_at}`;
  let job = byKey.get(id);
  if (!job) {
    job = computeAndStore(db, runId, family, spec, run).finally(() => byKey.delete(id));
    byKey.set(id, job);
  }
  return job;
}

/** Whether a stored row is of the chart's current version, computed by the current code. */
function isCurrent<S>(
  family: ColumnFamily<S>,
  spec: S,
  row: { version: number; compute_version: number } | undefined,
): boolean {
  return (
    row !== undefined &&
    row.version >= family.def(spec).version &&
    row.compute_version >= family.computeVersion
  );
}

/** The payload from the run's file, stored when the run is still as read; null: no file to read. */
async function computeAndStore<S>(
  db: Db,
  runId: string,
  family: ColumnFamily<S>,
  spec: S,
  run: RunSeen,
): Promise<string | null> {
  const chart = family.def(spec);
  // A computation that ended after this read looked, and stored its payload: that one.
  const row = await getChartRow(db, runId, chart.key);
  if (isCurrent(family, spec, row)) return row!.data;
  const computed = await family.compute(db, runId, spec, run);
  if (!computed) return null;
  const text = JSON.stringify(computed.payload);
  await storeComputedPayload(
    db,
    runId,
    chart.key,
    { text, version: chart.version, computeVersion: family.computeVersion },
    { summaryReadyAt: run.summary_ready_at, file: family.file, sha256: computed.sha256 },
  );
  return text;
}
/**
 * Several payloads of one run, for the exports that draw every view (the run and compare
 * reports): those the run has under the given keys, in their charts' current shape, a column
 * chart read as `readRunChart` reads it (computed from the run's file when not stored). A payload
 * that must be recomputed is left out, as one the run does not have.
 */
export async function readRunCharts(
  db: Db,
  runId: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const out = await chartPayloads(
    db,
    runId,
    keys.filter((k) => !columnChart(k)),
  );
  for (const key of keys) {
    if (!columnChart(key)) continue;
    const read = await readRunChart(db, runId, key);
    if (read && "text" in read) out.set(key, read.text);
  }
  return out;
}

/**
 * The keys of the column charts a ready run with a family's file has, stored or not: every chart
 * of that family (each is computed from the file on its first read). Compare lists them beside the
 * stored keys.
 */
export async function columnChartKeys(db: Db, runIds: readonly string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = Object.fromEntries(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return out;
  const rows = await db
    .selectFrom("run_column_files")
    .innerJoin("runs", "runs.id", "run_column_files.run_id")
    .select(["run_column_files.run_id as runId", "run_column_files.name as name"])
    .where("run_column_files.run_id", "in", [...runIds])
    .where("runs.status", "=", "ready")
    .execute();
  for (const r of rows)
    for (const family of FAMILIES)
      if (family.file === r.name) for (const k of family.keys) out[r.runId]?.push(k);
  return out;
}

/** The stored summary's word that the records are a sample of what aiperf summarised. */
function recordsSampleOf(summary: string | null): { records: number; described: number } | null {
  if (!summary) return null;
  const requests = (JSON.parse(summary) as { requests?: { recordsSample?: unknown } | null }).requests;
  const s = requests?.recordsSample;
  return typeof s === "object" && s !== null ? (s as { records: number; described: number }) : null;
}
