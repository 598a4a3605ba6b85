/**
 * The cache-reuse ledger (docs/metrics.md §Reuse ledger). Four steps, each a share of prompt
 * tokens (or blocks), from what the prompts could have reused to what the responses reported:
 *
 *   theoretical → router-predicted → engine-delivered (GPU, host/CPU, external) → reported
 *
 * and the loss between steps named: the router sent it elsewhere (theoretical − predicted),
 * evicted before reuse (predicted − GPU), not offloaded (predicted − every tier), recomputed
 * although reusable (theoretical − every tier), not reported (delivered − reported). A step with
 * no source is "not measured" with what to upload, never 0.
 *
 * Inputs are declared, each filled by the analyzer that reads it (lib/ingest/analyzers/index.ts):
 * the records' requests and aiperf's theoretical rate (ReuseFeed), the engines' counters and the
 * router's payloads (CacheFeed). Pure: no IO.
 */
import type {
  LedgerEndpoint,
  LedgerFigure,
  LedgerInterval,
  LedgerLoss,
  LedgerStep,
  ReuseLedgerPayload,
} from "@/lib/api/reuse-ledger";
import type { EndpointRole } from "@/lib/api/schemas";
import type { RouterLogPayload } from "@/lib/api/router-log";
import type { RouterPredictionPayload } from "@/lib/api/router-prediction";
import type { ReuseRequests } from "./reuse-intervals";
import type { ServedIntervals } from "./server-metrics/timeseries";

/** One prefill-side engine endpoint's cache counters over the window (null: not exported). */
export interface LedgerEngine {
  endpoint: string;
  role: EndpointRole;
  den: number | null;
  gpu: number | null;
  host: number | null;
  ext: number | null;
}

/** What the server-metrics analyzer hands to the ledger once every scrape and router log is read. */
export class CacheFeed {
  engines: LedgerEngine[] = [];
  /** The counter families the engines' tiers were read from */
  sources: string[] = [];
  served: ServedIntervals | null = null;
  routerHistogram: RouterPredictionPayload | null = null;
  routerLog: RouterLogPayload | null = null;
}

export interface LedgerInputs {
  requests: ReuseRequests | null;
  /** aiperf's theoretical_prefix_cache_hit (Σ hit / Σ total hash blocks), 0..1 */
  theoreticalBlocks: number | null;
  cache: CacheFeed;
  maxPoints?: number;
}

export const NOT_MEASURED = {
  theoretical:
    "not measured — upload aiperf profile_export.jsonl of a multi-turn run (with inputs.json for the estimate), or a summary with theoretical_prefix_cache_hit (a trace replay with hash_ids)",
  theoreticalRequests:
    "not measured — upload aiperf profile_export.jsonl of a multi-turn run: the possible reuse is counted per request",
  predictedBlocks:
    "not measured — upload the Dynamo frontend's log with its [ROUTING] Best lines (DYN_LOG=debug)",
  predictedRequests:
    "not measured — upload the Dynamo frontend's /metrics scrapes with the router started with --router-mode kv (dynamo_component_router_kv_hit_rate)",
  delivered:
    "not measured — upload the engines' server metrics (aiperf --server-metrics export or Prometheus scrapes with the prefix-cache counters)",
  deliveredRequests:
    "not measured — the engines' counters are totals over tokens; no engine counts per request",
  reported:
    "not measured — upload aiperf profile_export.jsonl of a multi-turn run whose responses carry usage.prompt_tokens_details.cached_tokens",
  tier: {
    host: "not exported — no host/CPU tier counter (vLLM CPU offloading connector, SGLang HiCache cached_tokens{cache_source=host}, TensorRT-LLM prompt_cache_hit_tokens{cache_tier=host})",
    external:
      "not exported — no external tier counter (vLLM KV connector with LMCache or Dynamo KVBM, SGLang cached_tokens{cache_source=storage}, TensorRT-LLM cache_tier=disk)",
  },
} as const;

const figure = (f: Partial<LedgerFigure>): LedgerFigure => ({
  rate: null,
  hit: null,
  of: null,
  requests: null,
  unit: null,
  source: null,
  missing: null,
  ...f,
});

const sumOf = (a: Array<number | null>) =>
  a.some((v) => v !== null) ? a.reduce<number>((s, v) => s + (v ?? 0), 0) : null;

/** Σ hit / Σ of, and the mean of per-request hit / prompt, over requests `keep` picks. */
function requestShares(
  r: ReuseRequests,
  hitOf: (i: number) => number,
  keep: (i: number) => boolean,
): { hit: number; of: number; mean: number; n: number } | null {
  let hit = 0;
  let of = 0;
  let ratios = 0;
  let n = 0;
  for (let i = 0; i < r.length; i++) {
    const p = r.prompt[i];
    if (!(p > 0) || !keep(i)) continue;
    const h = Math.min(Math.max(hitOf(i), 0), p);
    hit += h;
    of += p;
    ratios += h / p;
    n++;
  }
  return n === 0 ? null : { hit, of, mean: ratios / n, n };
}

const cachedOf = (r: ReuseRequests) => (i: number) => r.cached?.[i] ?? NaN;

/**
 * TTFT per computed prompt token: the least-squares slope of TTFT on (prompt − cached) over the
 * requests with both known. Null, with why, when fewer than 10 requests say, the computed tokens do
 * not vary, or TTFT does not grow with them.
 */
export function ttftPerComputedToken(r: ReuseRequests | null): { slope: number | null; fit: string } {
  if (!r?.cached || !r.ttftMs)
    return { slope: null, fit: "not measured — the requests carry no cached tokens or TTFT" };
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < r.length; i++) {
    const c = r.cached[i];
    const y = r.ttftMs[i];
    const p = r.prompt[i];
    if (!Number.isFinite(c) || !Number.isFinite(y) || !(p > 0)) continue;
    const x = p - Math.min(Math.max(c, 0), p);
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  if (n < 10)
    return { slope: null, fit: `not measured — ${n} requests with cached tokens and TTFT (10 needed)` };
  const varX = sxx - (sx * sx) / n;
  if (!(varX > 0)) return { slope: null, fit: "not measured — every request computed as many prompt tokens" };
  const slope = (sxy - (sx * sy) / n) / varX;
  if (!(slope > 0))
    return {
      slope: null,
      fit: `not measured — TTFT does not grow with computed prompt tokens over ${n} requests`,
    };
  return {
    slope,
    fit: `least squares of TTFT on computed prompt tokens (prompt − cached) over ${n} requests`,
  };
}

function theoreticalStep(inp: LedgerInputs): LedgerStep {
  const r = inp.requests;
  const byReq = r
    ? requestShares(
        r,
        (i) => r.possible[i],
        () => true,
      )
    : null;
  const recordsSource =
    r?.source === "inputs"
      ? "conversations' history, estimated from inputs.json"
      : "conversations' history: the previous turn's prompt and answer (records)";
  const blockWeighted =
    inp.theoreticalBlocks !== null
      ? figure({
          rate: inp.theoreticalBlocks,
          unit: "blocks",
          source:
            "aiperf theoretical_prefix_cache_hit: prompt hash blocks seen earlier in the run, with an unbounded cache (prefixes shared across conversations included)",
        })
      : byReq
        ? figure({
            rate: byReq.hit / byReq.of,
            hit: byReq.hit,
            of: byReq.of,
            requests: byReq.n,
            unit: "tokens",
            source: recordsSource,
          })
        : figure({ missing: NOT_MEASURED.theoretical });
  return {
    id: "theoretical",
    label: "theoretical (prompts' shared prefixes)",
    blockWeighted,
    requestWeighted: byReq
      ? figure({ rate: byReq.mean, requests: byReq.n, unit: "tokens", source: recordsSource })
      : figure({ missing: NOT_MEASURED.theoreticalRequests }),
    tiers: null,
  };
}

function predictedStep(cache: CacheFeed): LedgerStep {
  const log = cache.routerLog;
  const hist = cache.routerHistogram;
  const pools = hist?.pools.filter((p) => p.predicted !== null && (p.requests ?? 0) > 0) ?? [];
  const requests = pools.reduce((s, p) => s + p.requests!, 0);
  const blocks = log ? sumBlocks(log) : null;
  return {
    id: "predicted",
    label: "router-predicted",
    blockWeighted:
      log && log.predicted !== null
        ? figure({
            rate: log.predicted,
            hit: blocks?.overlap ?? null,
            of: blocks?.total ?? null,
            requests: log.decisions,
            unit: "blocks",
            source: "Dynamo router log: Σ overlap blocks / Σ prompt blocks of the chosen workers",
          })
        : figure({ missing: log?.missing ? `not measured — ${log.missing}` : NOT_MEASURED.predictedBlocks }),
    requestWeighted:
      pools.length > 0
        ? figure({
            rate: pools.reduce((s, p) => s + p.predicted! * p.requests!, 0) / requests,
            requests,
            unit: "blocks",
            source: `router hit-rate histogram: mean over routed requests (${pools.map((p) => p.label).join(", ")})`,
          })
        : figure({ missing: NOT_MEASURED.predictedRequests }),
    tiers: null,
  };
}

function sumBlocks(log: RouterLogPayload): { overlap: number; total: number } {
  let overlap = log.otherWorkers?.overlapBlocks ?? 0;
  let total = log.otherWorkers?.totalBlocks ?? 0;
  // Dynamo logs aggregated workers as decode too; only a disaggregated log (one that left decode
  // decisions out) has decode workers outside the prediction.
  for (const w of log.workers) {
    if (log.decodeDecisions > 0 && w.workerType === "decode") continue;
    overlap += w.overlapBlocks;
    total += w.totalBlocks;
  }
  return { overlap, total };
}

function deliveredStep(cache: CacheFeed): LedgerStep {
  const counted = cache.engines.filter((e) => e.den !== null && e.den > 0);
  const den = sumOf(counted.map((e) => e.den));
  const source = `engines' counters: ${cache.sources.join("; ") || "prefix cache"}`;
  const tier = (k: "gpu" | "host" | "ext", missing: string) => {
    const hit = sumOf(counted.map((e) => e[k]));
    return den === null
      ? figure({ missing: NOT_MEASURED.delivered })
      : hit === null
        ? figure({ missing })
        : figure({ rate: hit / den, hit, of: den, unit: "tokens", source });
  };
  const tiers = {
    gpu: tier("gpu", "not exported — no GPU prefix-cache counter"),
    host: tier("host", NOT_MEASURED.tier.host),
    external: tier("ext", NOT_MEASURED.tier.external),
  };
  const hit =
    den === null ? null : [tiers.gpu, tiers.host, tiers.external].reduce((s, t) => s + (t.hit ?? 0), 0);
  return {
    id: "delivered",
    label: "engine-delivered (every tier)",
    blockWeighted:
      den === null || hit === null
        ? figure({ missing: NOT_MEASURED.delivered })
        : figure({ rate: Math.min(1, hit / den), hit, of: den, unit: "tokens", source }),
    requestWeighted: figure({ missing: NOT_MEASURED.deliveredRequests }),
    tiers: den === null ? null : tiers,
  };
}

function reportedStep(r: ReuseRequests | null): LedgerStep {
  const cached = r?.cached ? cachedOf(r) : null;
  const s = r && cached ? requestShares(r, cached, (i) => Number.isFinite(cached(i))) : null;
  const source =
    "responses' usage.prompt_tokens_details.cached_tokens (aiperf usage_prompt_cache_read_tokens)";
  return {
    id: "reported",
    label: "reported to the client (cached_tokens)",
    blockWeighted: s
      ? figure({ rate: s.hit / s.of, hit: s.hit, of: s.of, requests: s.n, unit: "tokens", source })
      : figure({ missing: NOT_MEASURED.reported }),
    requestWeighted: s
      ? figure({ rate: s.mean, requests: s.n, unit: "tokens", source })
      : figure({ missing: NOT_MEASURED.reported }),
    tiers: null,
  };
}

const STEP_NAMES: Record<string, string> = {
  theoretical: "theoretical",
  predicted: "router-predicted",
  gpu: "delivered from GPU",
  delivered: "delivered (every tier)",
  reported: "reported",
};

const pctText = (r: number) => `${(r * 100).toFixed(1)} %`;
const pointsText = (r: number) => `${(r * 100).toFixed(1)} points`;

/** What it means when the later step of a loss counted more than the earlier one. */
const EXCESS: Record<LedgerLoss["id"], string> = {
  "routed-elsewhere":
    "the router predicted more reuse than the prompts' theoretical reuse (it also counts prefixes shared across conversations, or traffic the records do not hold)",
  "evicted-before-reuse": "the engines' GPU cache reused more than the router predicted",
  "not-offloaded": "the engines reused more than the router predicted",
  "recomputed-reusable":
    "the engines reused more than the theoretical reuse (prefixes shared across conversations, or traffic outside the records)",
  "not-reported":
    "the responses reported more cached tokens than the engines' counters served (the counters' window or endpoints do not cover every request)",
};

/**
 * The named losses between steps (block-weighted rates), in points, tokens and TTFT. A loss is
 * never negative: where the later step counted more, the loss is null and `finding` says so.
 */
export function ledgerLosses(
  rates: {
    theoretical: number | null;
    predicted: number | null;
    gpu: number | null;
    delivered: number | null;
    reported: number | null;
  },
  basisTokens: number | null,
  ttftMsPerToken: number | null,
  meanPromptTokens: number | null,
  offloadTier: boolean,
): LedgerLoss[] {
  const loss = (
    id: LedgerLoss["id"],
    label: string,
    from: keyof typeof rates,
    to: keyof typeof rates,
  ): LedgerLoss => {
    const a = rates[from];
    const b = rates[to];
    const missing =
      a === null || b === null
        ? `not measured — needs ${[a === null ? STEP_NAMES[from] : null, b === null ? STEP_NAMES[to] : null].filter(Boolean).join(" and ")}`
        : null;
    const diff = a === null || b === null ? null : a - b;
    // The later step counting more is no loss: it is said as its own finding, never a negative loss.
    const share = diff === null || diff < 0 ? null : diff;
    return {
      id,
      label,
      from: STEP_NAMES[from],
      to: STEP_NAMES[to],
      points: share === null ? null : share * 100,
      tokens: share === null || basisTokens === null ? null : share * basisTokens,
      ttftMsPerRequest:
        share === null || ttftMsPerToken === null || meanPromptTokens === null
          ? null
          : ttftMsPerToken * share * meanPromptTokens,
      missing,
      finding:
        diff !== null && diff < 0
          ? `no loss: ${STEP_NAMES[to]} (${pctText(b!)}) is above ${STEP_NAMES[from]} (${pctText(a!)}) by ${pointsText(-diff)}: ${EXCESS[id]}`
          : null,
    };
  };
  return [
    loss("routed-elsewhere", "router sent it elsewhere (or its index lacked it)", "theoretical", "predicted"),
    loss("evicted-before-reuse", "evicted before reuse (GPU)", "predicted", "gpu"),
    loss(
      "not-offloaded",
      offloadTier ? "evicted and not served by any offload tier" : "not offloaded (no host or external tier)",
      "predicted",
      "delivered",
    ),
    loss("recomputed-reusable", "recomputed although reusable", "theoretical", "delivered"),
    loss("not-reported", "served but not reported to the client", "delivered", "reported"),
  ];
}

function endpointsOf(cache: CacheFeed): LedgerEndpoint[] {
  const log = cache.routerLog;
  return cache.engines.map((e) => {
    const worker = log?.workers.find((w) => w.endpoint === e.endpoint) ?? null;
    const pool = cache.routerHistogram?.pools.find((p) => p.endpoints.some((x) => x.endpoint === e.endpoint));
    const served = e.den !== null && e.den > 0 ? (e.gpu ?? 0) + (e.host ?? 0) + (e.ext ?? 0) : null;
    return {
      endpoint: e.endpoint,
      role: e.role,
      lookupTokens: e.den,
      gpuTokens: e.gpu,
      hostTokens: e.host,
      externalTokens: e.ext,
      delivered: served === null ? null : Math.min(1, served / e.den!),
      predictedBlocks: worker?.predicted ?? null,
      predictedRequests: pool?.predicted ?? null,
      note:
        log && !worker
          ? "router log: worker not mappable to this endpoint (the scrapes do not name instance ids)"
          : null,
    };
  });
}

/** Each scrape interval's steps as shares of its prompt tokens, merged to at most `maxPoints`. */
function intervalsOf(inp: LedgerInputs): LedgerInterval[] {
  const s = inp.cache.served;
  if (!s || s.startNs.length === 0) return [];
  const n = s.startNs.length;
  const k = Math.ceil(n / (inp.maxPoints ?? 2000));
  const acc = Array.from({ length: n }, () => ({
    prompt: 0,
    possible: 0,
    cachedPrompt: 0,
    cached: 0,
    reqs: 0,
  }));
  const r = inp.requests;
  if (r) {
    for (let i = 0; i < r.length; i++) {
      const j = intervalIndex(s, r.atEpochMs[i] * 1e6);
      const p = r.prompt[i];
      if (j === -1 || !(p > 0)) continue;
      const a = acc[j];
      a.prompt += p;
      a.possible += Math.min(Math.max(r.possible[i], 0), p);
      a.reqs++;
      const c = r.cached?.[i] ?? NaN;
      if (Number.isFinite(c)) {
        a.cachedPrompt += p;
        a.cached += Math.min(Math.max(c, 0), p);
      }
    }
  }
  const predictedAt = new Map<number, number | null>();
  const log = inp.cache.routerLog;
  if (log?.startEpochMs != null && Math.abs(log.startEpochMs - s.startNs[0] / 1e6) < 1)
    for (const p of log.points) predictedAt.set(Math.round(p.t * 1000), p.predicted);
  const out: LedgerInterval[] = [];
  for (let from = 0; from < n; from += k) {
    const to = Math.min(from + k, n);
    let prompt: number | null = null;
    let gpu = 0;
    let ext: number | null = null;
    let dur = 0;
    const a = { prompt: 0, possible: 0, cachedPrompt: 0, cached: 0, reqs: 0 };
    for (let i = from; i < to; i++) {
      if (s.prompt[i] !== null) prompt = (prompt ?? 0) + s.prompt[i]!;
      gpu += s.gpu[i] ?? 0;
      const e = s.external?.[i] ?? null;
      if (e !== null) ext = (ext ?? 0) + e;
      dur += s.durationNs[i];
      for (const key of Object.keys(a) as Array<keyof typeof a>) a[key] += acc[i][key];
    }
    const t = (s.startNs[from] - s.startNs[0]) / 1e9;
    const share = (x: number | null, of: number | null) =>
      x === null || of === null || !(of > 0) ? null : Math.min(1, x / of);
    out.push({
      t,
      durationS: dur > 0 ? dur / 1e9 : null,
      requests: a.reqs,
      theoretical: a.reqs > 0 ? share(a.possible, a.prompt) : null,
      predicted: predictedAt.get(Math.round(t * 1000)) ?? null,
      gpu: share(gpu, prompt),
      offload: s.external ? share(ext ?? 0, prompt) : null,
      reported: share(a.cachedPrompt > 0 ? a.cached : null, a.cachedPrompt),
    });
  }
  return out;
}

function intervalIndex(s: ServedIntervals, ns: number): number {
  if (!Number.isFinite(ns)) return -1;
  let lo = 0;
  let hi = s.startNs.length - 1;
  if (ns < s.startNs[0]) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (s.startNs[mid] <= ns) lo = mid;
    else hi = mid - 1;
  }
  return ns < s.startNs[lo] + s.durationNs[lo] ? lo : -1;
}

/** The run's ledger, or null when no step has a source (the run says nothing about reuse). */
export function buildReuseLedger(inp: LedgerInputs): ReuseLedgerPayload | null {
  const steps = [
    theoreticalStep(inp),
    predictedStep(inp.cache),
    deliveredStep(inp.cache),
    reportedStep(inp.requests),
  ];
  if (steps.every((s) => s.blockWeighted.rate === null && s.requestWeighted.rate === null)) return null;
  const [theoretical, predicted, delivered, reported] = steps.map((s) => s.blockWeighted);
  const r = inp.requests;
  const clientPrompt = r ? r.prompt.reduce((a, p) => a + (p > 0 ? p : 0), 0) : 0;
  const counted = r ? r.prompt.filter((p) => p > 0).length : 0;
  const basis =
    delivered.of !== null
      ? { tokens: delivered.of, what: "the engines' prompt tokens looked up (the counters' denominator)" }
      : clientPrompt > 0
        ? { tokens: clientPrompt, what: "the requests' prompt tokens (aiperf's ISL)" }
        : { tokens: null, what: null };
  const fit = ttftPerComputedToken(r);
  const offloadTier =
    steps[2].tiers !== null && (steps[2].tiers.host.rate !== null || steps[2].tiers.external.rate !== null);
  return {
    steps,
    losses: ledgerLosses(
      {
        theoretical: theoretical.rate,
        predicted: predicted.rate,
        gpu: steps[2].tiers?.gpu.rate ?? null,
        delivered: delivered.rate,
        reported: reported.rate,
      },
      basis.tokens,
      fit.slope,
      counted > 0 ? clientPrompt / counted : null,
      offloadTier,
    ),
    basisTokens: basis.tokens,
    basis: basis.what,
    ttftMsPerToken: fit.slope,
    ttftFit: fit.fit,
    endpoints: endpointsOf(inp.cache),
    startEpochMs:
      inp.cache.served && inp.cache.served.startNs.length > 0 ? inp.cache.served.startNs[0] / 1e6 : null,
    intervals: intervalsOf(inp),
  };
}
