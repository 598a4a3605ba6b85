/**
 * Predicted vs delivered from the router's own log (docs/metrics.md §Predicted vs delivered per
 * worker). Each `[ROUTING] Best` line says which worker the router chose and how many of the
 * prompt's blocks it believed that worker held. Summed per worker and per scrape interval, blocks
 * add before they divide (Σ overlap / Σ prompt blocks), the same weighting as the engines' own
 * Σ cached / Σ prompt tokens, so the two rates can stand side by side; a mean of per-request
 * ratios would let short prompts count as much as long ones.
 */
import {
  boundWorkers,
  ROUTER_LOG_HOW,
  type RouterLogPayload,
  type RouterLogPoint,
  type RouterLogWorker,
} from "@/lib/api/router-log";
import type { RouterLog } from "@/lib/formats/router-log";
import type { EndpointFacts } from "./endpoint-facts";
import { clampFraction } from "./select";
import { combineCache, prefillSide } from "./summarize";
import { MAX_POINTS, servedIntervals, type ServedIntervals } from "./timeseries";
import { MISSING_ENGINES } from "./router-prediction";

/** The router logs of one ingest, filled as they are read and used once the scrapes are summarised. */
export class RouterLogFeed {
  readonly logs: { file: string; log: RouterLog }[] = [];
}

export const SOURCE =
  "Dynamo frontend log, [ROUTING] Best lines (DEBUG: the chosen worker and its overlap / the prompt's blocks), one per routed request";
export const MISSING_BLOCKS = `The log has the router's choices (Selected worker lines, INFO) but not the prompt's size: ${ROUTER_LOG_HOW}.`;
export const MISSING_DECISIONS =
  "The router log has no routing decision in the scrapes' window: upload the frontend's log of the benchmark itself.";

interface Decision {
  timeMs: number;
  overlap: number;
  total: number;
}

interface WorkerAcc {
  workerId: string;
  dpRank: number | null;
  workerType: string | null;
  requests: number;
  overlapBlocks: number;
  totalBlocks: number;
}

const ratio = (o: number, t: number) => (t > 0 ? clampFraction(o / t) : null);
const gap = (predicted: number | null, delivered: number | null) =>
  predicted === null || delivered === null ? null : (delivered - predicted) * 100;

/** [first start, last end) of the scrapes, epoch ms. */
function windowOf(served: ServedIntervals | null): [number, number] | null {
  if (!served || served.startNs.length === 0) return null;
  const last = served.startNs.length - 1;
  return [served.startNs[0] / 1e6, (served.startNs[last] + served.durationNs[last]) / 1e6];
}

/** Predicted (and delivered) per scrape interval, neighbours merged to at most MAX_POINTS. */
function pointsOnIntervals(served: ServedIntervals, timed: readonly Decision[]): RouterLogPoint[] {
  const n = served.startNs.length;
  const o = new Float64Array(n);
  const t = new Float64Array(n);
  const r = new Float64Array(n);
  const sorted = [...timed].sort((a, b) => a.timeMs - b.timeMs);
  let i = 0;
  for (const d of sorted) {
    const ns = d.timeMs * 1e6;
    while (i < n && ns >= served.startNs[i] + served.durationNs[i]) i++;
    if (i === n) break;
    if (ns < served.startNs[i]) continue;
    o[i] += d.overlap;
    t[i] += d.total;
    r[i]++;
  }
  const k = Math.max(1, Math.ceil(n / MAX_POINTS));
  const out: RouterLogPoint[] = [];
  for (let a = 0; a < n; a += k) {
    let so = 0;
    let st = 0;
    let sr = 0;
    let prompt = 0;
    let gpu = 0;
    let counted = false;
    for (let j = a; j < Math.min(n, a + k); j++) {
      so += o[j];
      st += t[j];
      sr += r[j];
      if (served.prompt[j] !== null) {
        counted = true;
        prompt += served.prompt[j]!;
        gpu += served.gpu[j] ?? 0;
      }
    }
    out.push({
      t: (served.startNs[a] - served.startNs[0]) / 1e9,
      predicted: ratio(so, st),
      delivered: counted && prompt > 0 ? clampFraction(gpu / prompt) : null,
      requests: sr,
    });
  }
  return out;
}

/** With no scrapes: the decisions in even bins (about 300 over the log's span), predicted only. */
function pointsOnBins(timed: readonly Decision[]): {
  points: RouterLogPoint[];
  stepS: number;
  startMs: number;
} {
  let first = Infinity;
  let last = -Infinity;
  for (const d of timed) {
    first = Math.min(first, d.timeMs);
    last = Math.max(last, d.timeMs);
  }
  const stepS = Math.max(1, Math.ceil((last - first) / 1000 / 300));
  const n = Math.floor((last - first) / 1000 / stepS) + 1;
  const o = new Float64Array(n);
  const t = new Float64Array(n);
  const r = new Float64Array(n);
  for (const d of timed) {
    const i = Math.floor((d.timeMs - first) / 1000 / stepS);
    o[i] += d.overlap;
    t[i] += d.total;
    r[i]++;
  }
  const points: RouterLogPoint[] = [];
  for (let i = 0; i < n; i++)
    points.push({ t: i * stepS, predicted: ratio(o[i], t[i]), delivered: null, requests: r[i] });
  return { points, stepS, startMs: first };
}

function mappingOf(
  workers: WorkerAcc[],
  engines: readonly EndpointFacts[],
): { note: string; endpoint: EndpointFacts | null } {
  if (workers.length === 0)
    return {
      note: "No routing decision was counted, so there is nothing to show per worker.",
      endpoint: null,
    };
  if (engines.length === 0)
    return {
      note: "No engine scrapes in the upload, so per worker only the prediction is known.",
      endpoint: null,
    };
  if (workers.length === 1 && engines.length === 1)
    return {
      note: `One worker in the router log and one engine endpoint in the scrapes (${engines[0].endpoint}): they are the same worker.`,
      endpoint: engines[0],
    };
  return {
    note:
      `Per worker, delivered is not mappable: the log names ${workers.length} worker${workers.length === 1 ? "" : "s"} ` +
      `by Dynamo instance id and the ${engines.length} engine scrape${engines.length === 1 ? "" : "s"} carry no such id. ` +
      "Predicted and delivered are compared over the whole pool.",
    endpoint: null,
  };
}

/** The payload, or null when the upload has no router log. */
export function buildRouterLogPrediction(
  feed: RouterLogFeed,
  facts: readonly EndpointFacts[],
): RouterLogPayload | null {
  if (feed.logs.length === 0) return null;
  const engines = prefillSide(facts);
  const served = servedIntervals(engines);
  const window = windowOf(served);
  const accs = new Map<string, WorkerAcc>();
  const timed: Decision[] = [];
  let overlap = 0;
  let total = 0;
  let decisions = 0;
  let outsideWindow = 0;
  let untimed = 0;
  let decodeDecisions = 0;
  let selectedLines = 0;
  // In a disaggregated deployment the decode router's overlap is not what the prefill engines reuse.
  const disagg = feed.logs.some(({ log }) => log.workers.some((w) => w.type === "prefill"));
  for (const { log } of feed.logs) {
    selectedLines += log.selectedLines;
    for (let i = 0; i < log.worker.length; i++) {
      const w = log.workers[log.worker[i]];
      if (disagg && w.type === "decode") {
        decodeDecisions++;
        continue;
      }
      const timeMs = log.timeMs[i];
      const hasTime = Number.isFinite(timeMs);
      if (window && hasTime && (timeMs < window[0] || timeMs >= window[1])) {
        outsideWindow++;
        continue;
      }
      const key = `${w.id}|${w.dpRank ?? ""}`;
      let acc = accs.get(key);
      if (!acc) {
        acc = {
          workerId: w.id,
          dpRank: w.dpRank,
          workerType: w.type,
          requests: 0,
          overlapBlocks: 0,
          totalBlocks: 0,
        };
        accs.set(key, acc);
      }
      acc.requests++;
      acc.overlapBlocks += log.overlapBlocks[i];
      acc.totalBlocks += log.totalBlocks[i];
      overlap += log.overlapBlocks[i];
      total += log.totalBlocks[i];
      decisions++;
      if (hasTime) timed.push({ timeMs, overlap: log.overlapBlocks[i], total: log.totalBlocks[i] });
      else untimed++;
    }
  }
  const byWorker = [...accs.values()].sort(
    // Code-point order on ties: localeCompare over 200,000 workers held the event loop for seconds.
    (a, b) =>
      b.requests - a.requests ||
      (a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : (a.dpRank ?? -1) - (b.dpRank ?? -1)),
  );
  const { note, endpoint } = mappingOf(byWorker, engines);
  const cache = engines.length > 0 ? combineCache(engines) : null;
  const delivered = cache?.gpuHitRate ?? null;
  const predicted = ratio(overlap, total);
  // The workers with most routed requests one by one, the rest in one row: a log naming
  // 200,000 workers must not make a payload of tens of megabytes (docs/metrics.md).
  const { shown, other: otherWorkers } = boundWorkers(byWorker);
  const workers: RouterLogWorker[] = shown.map((a) => {
    const p = ratio(a.overlapBlocks, a.totalBlocks);
    const d = endpoint ? endpoint.hitRate : null;
    return { ...a, predicted: p, endpoint: endpoint?.endpoint ?? null, delivered: d, gapPoints: gap(p, d) };
  });
  let points: RouterLogPoint[] = [];
  let stepS: number | null = null;
  let startEpochMs: number | null = null;
  if (served && window) {
    points = pointsOnIntervals(served, timed);
    const k = Math.max(1, Math.ceil(served.startNs.length / MAX_POINTS));
    stepS = (served.durationNs[0] * k) / 1e9;
    startEpochMs = window[0];
  } else if (timed.length > 0) {
    const bins = pointsOnBins(timed);
    points = bins.points;
    stepS = bins.stepS;
    startEpochMs = bins.startMs;
  }
  const missing =
    decisions === 0
      ? selectedLines > 0 && feed.logs.every(({ log }) => log.worker.length === 0)
        ? MISSING_BLOCKS
        : MISSING_DECISIONS
      : delivered === null
        ? MISSING_ENGINES
        : null;
  return {
    files: feed.logs.map((l) => l.file),
    source: SOURCE,
    decisions,
    outsideWindow,
    untimed,
    decodeDecisions,
    predicted,
    delivered,
    deliveredMethod: cache?.method ?? null,
    gapPoints: gap(predicted, delivered),
    workers,
    otherWorkers,
    mapping: note,
    missing,
    stepS,
    startEpochMs,
    points: points.some((p) => p.predicted !== null) ? points : [],
  };
}
