/**
 * Everything a TensorRT-LLM run summary holds, computed from joined requests: the timeBreakdown
 * block, endpoint rows, chart payloads and one stored row per request. Pure: the analyzer does IO.
 */
import { mixedClocks, mixedClocksWarning } from "./clock-mix";
import type { EndpointRow, TimeBreakdownBlock } from "@/lib/api/schemas";
import type { TrtllmKvBlocks, TrtllmWorkerRecord } from "@/lib/formats/trtllm-record";
import { StepList } from "@/lib/formats/trtllm-step-list";
import { computeStatsInSteps, type Stats } from "./stats";
import type { Steps } from "./steps";
import { requestSegments, requestStart, SegmentColumns, segmentColumnStatsInSteps } from "./time-breakdown";
import { clockOffsetSample, estimateClockOffsetInSteps } from "./trtllm-clock-offset";
import { requestRow, toMs, type TrtllmRequestRow } from "./trtllm-request-row";
import type { JoinedList, JoinResult } from "./trtllm-join";
import { BlockTally, transferBandwidthGBps } from "./trtllm-kv";
import { TRTLLM_COLUMN_CHARTS, type TrtllmRequestColumns } from "./trtllm-column-charts";
import { endpointRowsInSteps, hitRatesInSteps } from "./trtllm-worker-rows";
import {
  STEP_METRICS,
  type HistogramPayload,
  type KvHitRatePayload,
  type SegmentsPayload,
  type StepsPayload,
} from "@/lib/api/trtllm-charts";
import { StepValues, packedStepsJson } from "./trtllm-steps";
import { generationStepsOf, outputTokensOf, requestLatency, TrtllmLatencyColumns } from "./trtllm-latency";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { TrtllmSlowest } from "./trtllm-slowest";

export interface TrtllmSummary {
  timeBreakdown: TimeBreakdownBlock;
  endpoints: Array<Partial<EndpointRow> & Pick<EndpointRow, "endpoint">>;
  charts: Record<string, unknown>;
  warnings: string[];
  /** Distinct requests, including any left out of the breakdown */
  requestCount: number;
  /** The steady-clock second the stored request times count from (their earliest arrival) */
  originS: number;
  /** Perf-metrics records present ⇒ engine-level return_perf_metrics was on; null when there are none. */
  returnPerfMetrics: boolean | null;
}

/** Requests a pass over the joined requests takes between two calls of `pause`. */
export const SUMMARY_STEP = 500;

/**
 * Rows are handed to `emit` one at a time (the analyzer batches them into the store); a promise
 * it returns is awaited before the next row, a plain return is not (one await per batch).
 * `pause` is called between pieces of the work (every SUMMARY_STEP requests of a pass, between
 * the steps of a sort and between the summary's parts), and a promise it returns awaited: the
 * analyzer gives the event loop a turn there. The answer is the same whatever it does.
 */
export async function summarizeTrtllm(
  join: JoinResult,
  workerNames: readonly string[],
  emit: (row: TrtllmRequestRow) => Promise<void> | undefined,
  pause: () => Promise<void> | undefined = () => undefined,
): Promise<TrtllmSummary> {
  const { mode, requests } = join;
  const warnings = [...join.warnings];
  const paused = async () => {
    const p = pause();
    if (p) await p;
  };
  /** A computation in steps, with a pause between them. */
  const stepped = async <T>(steps: Steps<T>): Promise<T> => {
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      await paused();
    }
  };
  const statsOf = (values: ArrayLike<number>): Promise<Stats | null> => stepped(computeStatsInSteps(values));
  let origin = Infinity;
  const starts: Array<number | null> = [];
  for (let idx = 0; idx < requests.length; idx++) {
    const s = requestStart(requests.get(idx).times);
    starts.push(s);
    if (s !== null && s < origin) origin = s;
    if ((idx + 1) % SUMMARY_STEP === 0) await paused();
  }
  if (!Number.isFinite(origin)) origin = 0;
  const clocks = mixedClocks(starts);
  if (clocks) warnings.push(mixedClocksWarning(clocks));

  const offsets = await stepped(clockOffsets(requests));
  const stepValues = new StepValues("steps");
  const chunkValues = new StepValues("chunks");
  const segmentColumns = new SegmentColumns(mode, requests.length);
  const latency = new TrtllmLatencyColumns(requests.length);
  const slowest = new TrtllmSlowest();
  // Arrival ms per request, NaN when not recorded.
  const arrivals = new Float64Array(requests.length);
  const prefillTally = new BlockTally();
  const anyTally = new BlockTally();
  const transferBytes: number[] = [];
  // KV transfer bandwidth (GB/s) per request, NaN when there is none.
  const bandwidths = new Float64Array(requests.length).fill(NaN);
  let sawSteps = false;

  for (let idx = 0; idx < requests.length; idx++) {
    const r = requests.get(idx);
    const t = r.times;
    const segments = requestSegments(t, mode);
    segmentColumns.set(idx, segments, t);
    const start = requestStart(t);
    const kv: TrtllmKvBlocks | null = r.ctx?.kv ?? r.gen?.kv ?? null;
    if (r.ctx?.kv) prefillTally.add(r.ctx.kv);
    anyTally.add(kv);
    const bytes = r.gen?.timing.kvCacheSizeBytes ?? r.ctx?.timing.kvCacheSizeBytes ?? null;
    const bandwidth = transferBandwidthGBps(bytes, t.genKvTransferStart, t.genKvTransferEnd);
    if (bytes !== null) transferBytes.push(bytes);
    if (bandwidth !== null) bandwidths[idx] = bandwidth;

    // Steps: context chunks from the prefill side; generation steps from the decode side (the
    // single record when aggregated).
    const chunkRec = r.ctx;
    const stepRec = mode === "aggregated" ? r.ctx : r.gen;
    const chunkOffset = r.ctxSource ? (offsets.get(r.ctxSource) ?? null) : null;
    const stepOffset = (mode === "aggregated" ? r.ctxSource : r.genSource) ?? null;
    const stepOff = stepOffset ? (offsets.get(stepOffset) ?? null) : null;
    const chunks = chunkRec?.chunks ?? StepList.EMPTY;
    const steps = stepRec?.steps ?? StepList.EMPTY;
    if (chunks.length || steps.length) sawSteps = true;
    chunkValues.add(
      chunkRec,
      chunkOffset !== null && t.ctxFirstScheduled !== null ? t.ctxFirstScheduled + chunkOffset : null,
    );
    const firstStepAfter =
      mode === "aggregated" && chunks.length
        ? chunks.get(chunks.length - 1).tokenTime
        : stepOff !== null && t.genFirstScheduled !== null
          ? t.genFirstScheduled + stepOff
          : null;
    stepValues.add(stepRec, firstStepAfter);
    const runMs = (off: number | null) => (off === null ? null : (s: number) => (s - off - origin) * 1000);

    const iters = (stepRec ?? chunkRec) as TrtllmWorkerRecord | null;
    arrivals[idx] = toMs(start, origin) ?? NaN;
    const reqLatency = requestLatency(t);
    const genSteps = generationStepsOf(steps.length, stepRec, mode === "disaggregated");
    if (steps.length === 0 && genSteps > 0) latency.tokensFromIterations++;
    const outputTokens = outputTokensOf(genSteps, stepRec?.speculative ?? null);
    const row = requestRow(r, {
      idx,
      mode,
      origin,
      workerNames,
      segments,
      kv,
      transferBytes: bytes,
      bandwidth,
      iters,
      stepCount: steps.length,
      chunkCount: chunks.length,
      stepsJson: packedStepsJson(chunks, runMs(chunkOffset), steps, runMs(stepOff)),
      latency: reqLatency,
      outputTokens,
    });
    // The drill-down's own TTFT and E2E, so the distribution and a request's detail never differ.
    latency.set(idx, row.ttft_ms, row.e2e_ms, outputTokens, reqLatency.oneResponse);
    const tpot = latency.tpotMs[idx];
    slowest.add({
      idx,
      requestId: row.request_id,
      disaggRequestId: row.disagg_request_id,
      startS: row.arrival_ms === null ? null : row.arrival_ms / 1000,
      ttftMs: row.ttft_ms,
      e2eMs: row.e2e_ms,
      tpotMs: Number.isFinite(tpot) ? tpot : null,
      outputTokens,
    });
    const written = emit(row);
    if (written) await written;
    if ((idx + 1) % SUMMARY_STEP === 0) await paused();
  }

  await paused();
  const stats = await stepped(segmentColumnStatsInSteps(segmentColumns));
  await paused();
  for (const w of stats.warnings) warnings.push(w);
  // docs/metrics.md §KV hit rate from perf metrics: block-weighted over prefill-side records when roles are
  // known.
  const runTally = prefillTally.requests > 0 ? prefillTally : anyTally;
  const runHitRate = runTally.hitRate();
  const transferStats = await statsOf(transferBytes);
  const latencySummary = await stepped(latency.summarizeInSteps());
  await paused();
  // The charts of per-request columns alone, by the functions their read from the run's request
  // file calls too (./trtllm-column-charts.ts).
  const columns: TrtllmRequestColumns = {
    arrivalMs: arrivals,
    latency,
    kvBandwidthGBps: bandwidths,
    segments: segmentColumns,
  };
  const columnCharts: Record<string, unknown> = {};
  for (const c of TRTLLM_COLUMN_CHARTS) {
    columnCharts[c.chart.key] = await stepped(c.compute(columns));
    await paused();
  }
  const bandwidth = columnCharts[TRTLLM_CHARTS.kvTransferBandwidth.key] as HistogramPayload;
  const timeBreakdown: TimeBreakdownBlock = {
    mode,
    requestCount: requests.length,
    segments: stats.segments,
    kvCacheHitRate: runHitRate,
    kvBlockLookups: runTally.lookups(),
    kvTransfer:
      transferBytes.length || bandwidth.count
        ? { count: transferBytes.length, bytes: transferStats, bandwidthGBps: bandwidth.stats }
        : null,
    latency: latencySummary.block,
  };

  const segmentsPayload: SegmentsPayload = {
    mode,
    requestCount: requests.length,
    segments: stats.segments.map((s, i) => ({
      ...s,
      excluded: stats.excluded[i],
      clamped: stats.clamped[i],
      notRecorded: requests.length - s.count - stats.excluded[i],
    })),
  };
  const hit = await stepped(hitRatesInSteps(join, workerNames));
  await paused();
  const stepStats: Record<string, Stats | null> = {};
  const chunkStats: Record<string, Stats | null> = {};
  // Each metric's values read in steps, then its statistics in steps.
  for (const m of STEP_METRICS) stepStats[m] = await statsOf(await stepped(stepValues.valuesInSteps(m)));
  for (const m of STEP_METRICS) chunkStats[m] = await statsOf(await stepped(chunkValues.valuesInSteps(m)));
  const stepsPayload: StepsPayload = {
    steps: stepStats as StepsPayload["steps"],
    chunks: chunkStats as StepsPayload["chunks"],
    offsets: [...offsets.samples].map(([source, n]) => ({
      source: sourceName(source, workerNames),
      role: source.startsWith("file:")
        ? join.fileRoles[Number(source.slice(5))]
        : source.endsWith(":ctx")
          ? "prefill"
          : "decode",
      offsetS: offsets.get(source) ?? null,
      samples: n,
    })),
  };
  if (stepValues.truncated || chunkValues.truncated)
    warnings.push(
      "more than 2,000,000 step values per metric: step statistics cover the requests that came first",
    );
  if (sawSteps && [...offsets.samples.keys()].some((k) => offsets.get(k) === null))
    warnings.push(
      "some workers have fewer than 3 records with steps: their steps are not placed on the request timeline",
    );

  await paused();
  const endpoints = await stepped(endpointRowsInSteps(join, workerNames, hit.byFile));
  await paused();
  return {
    timeBreakdown,
    endpoints,
    charts: {
      [TRTLLM_CHARTS.segments.key]: segmentsPayload,
      [TRTLLM_CHARTS.segmentShare.key]: columnCharts[TRTLLM_CHARTS.segmentShare.key],
      [TRTLLM_CHARTS.kvTransferBandwidth.key]: bandwidth,
      [TRTLLM_CHARTS.kvHitRate.key]: { ...hit.payload, run: runHitRate } satisfies KvHitRatePayload,
      [TRTLLM_CHARTS.steps.key]: stepsPayload,
      [TRTLLM_CHARTS.latencyDistribution.key]: columnCharts[TRTLLM_CHARTS.latencyDistribution.key],
      [TRTLLM_CHARTS.latencyOverTime.key]: columnCharts[TRTLLM_CHARTS.latencyOverTime.key],
      [TRTLLM_CHARTS.slowest.key]: slowest.payload(),
    },
    warnings,
    requestCount: requests.length + join.leftOut.length,
    originS: origin,
    // Per-request perf metrics exist only when the engine ran with return_perf_metrics on
    // (tensorrt_llm/serve/scripts/time_breakdown/README.md, step 1): records prove it, steps or not.
    returnPerfMetrics: sawSteps || requests.length > 0 ? true : null,
  };
}

function sourceName(source: string, workerNames: readonly string[]): string {
  if (source.startsWith("file:")) return workerNames[Number(source.slice(5))] ?? source;
  return source;
}

/** Per step source (worker file, or the copy inside a disagg record): the estimated clock offset. */
function* clockOffsets(requests: JoinedList): Steps<{
  get: (k: string) => number | null;
  samples: Map<string, number>;
}> {
  const bySource = new Map<string, number[]>();
  const add = (source: string | null, rec: TrtllmWorkerRecord | null) => {
    if (!source || !rec || (rec.steps.length === 0 && rec.chunks.length === 0)) return;
    const s = clockOffsetSample(rec);
    let arr = bySource.get(source);
    if (!arr) bySource.set(source, (arr = []));
    if (s !== null) arr.push(s);
  };
  for (let idx = 0; idx < requests.length; idx++) {
    const r = requests.get(idx);
    add(r.ctxSource, r.ctx);
    if (r.genSource !== r.ctxSource) add(r.genSource, r.gen);
    if ((idx + 1) % SUMMARY_STEP === 0) yield;
  }
  const offsets = new Map<string, number | null>();
  const samples = new Map<string, number>();
  for (const [k, v] of bySource) {
    yield;
    offsets.set(k, yield* estimateClockOffsetInSteps(v));
    samples.set(k, v.length);
  }
  return { get: (k: string) => offsets.get(k) ?? null, samples };
}
