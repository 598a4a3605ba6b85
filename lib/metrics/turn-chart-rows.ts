/**
 * Rows the Turns view draws from the stored payload (lib/api/turns.ts): one per turn index, the
 * values null where the turn has none (a turn whose requests all failed has no TTFT), so a line
 * skips it rather than dropping to 0.
 */
import { METRICS, metricAtStat, type Direction } from "@/lib/api/metric-catalog";
import type { EndpointReuse, ReuseIntervalsPayload, TurnRow, TurnsPayload } from "@/lib/api/turns";

export type TurnBandMetric = "ttftMs" | "e2eMs" | "inputTokens" | "outputTokens";

export interface TurnBandRow {
  turn: number;
  label: string;
  p50: number | null;
  p90: number | null;
  mean: number | null;
  count: number;
}

/** "3", or "≥ 99" on a row that pools the turns past the last one kept. */
export const turnLabel = (r: Pick<TurnRow, "turn" | "pooled">) => (r.pooled ? `≥ ${r.turn}` : String(r.turn));

export function turnBandRows(p: TurnsPayload, metric: TurnBandMetric): TurnBandRow[] {
  return p.rows.map((r) => {
    const b = r[metric];
    return {
      turn: r.turn,
      label: turnLabel(r),
      p50: b?.p50 ?? null,
      p90: b?.p90 ?? null,
      mean: b?.mean ?? null,
      count: b?.count ?? 0,
    };
  });
}

export interface TurnCountRow {
  turn: number;
  label: string;
  ok: number;
  errors: number;
  cancelled: number;
}

export function turnCountRows(p: TurnsPayload): TurnCountRow[] {
  return p.rows.map((r) => ({
    turn: r.turn,
    label: turnLabel(r),
    ok: r.requests - r.errors - r.cancelled,
    errors: r.errors,
    cancelled: r.cancelled,
  }));
}

export interface TurnRateRow {
  turn: number;
  label: string;
  /** Percent of prompt tokens served from cache */
  hitPct: number | null;
  /** Percent of prompt tokens an earlier turn made reusable: the ceiling */
  possiblePct: number | null;
}

export function turnRateRows(p: TurnsPayload): TurnRateRow[] {
  return p.rows.map((r) => ({
    turn: r.turn,
    label: turnLabel(r),
    hitPct: r.hitRate === null ? null : r.hitRate * 100,
    possiblePct: r.possibleRate === null ? null : r.possibleRate * 100,
  }));
}

export interface TurnReuseRow {
  turn: number;
  label: string;
  requests: number;
  /** Mean tokens per request of the turn, so a turn's height is its mean prompt */
  cached: number | null;
  recomputed: number | null;
  fresh: number | null;
  ceiling: number | null;
  prompt: number | null;
}

/**
 * The reuse stack per turn, in mean tokens per request: cached + recomputed + fresh = prompt,
 * and the ceiling (possible reuse) drawn over it. Null on a turn with no request that has all
 * three of prompt, cached and possible tokens.
 */
export function turnReuseRows(p: TurnsPayload): TurnReuseRow[] {
  return p.rows.map((r) => {
    const u = r.reuse;
    const per = (v: number) => (u ? v / u.requests : null);
    return {
      turn: r.turn,
      label: turnLabel(r),
      requests: u?.requests ?? 0,
      cached: u ? per(u.cachedTokens) : null,
      recomputed: u ? per(u.recomputedReusableTokens) : null,
      fresh: u ? per(u.newTokens) : null,
      ceiling: u ? per(u.possibleTokens) : null,
      prompt: u ? per(u.promptTokens) : null,
    };
  });
}

/** Run-wide totals of the stack: what share of the possible reuse the serving stack achieved. */
export function reuseTotals(p: TurnsPayload) {
  const t = sums(
    p.rows.flatMap((r) => (r.reuse ? [r.reuse] : [])),
    ["prompt", "cached", "possible", "recomputed"],
    (u) => ({
      prompt: u.promptTokens,
      cached: u.cachedTokens,
      possible: u.possibleTokens,
      recomputed: u.recomputedReusableTokens,
    }),
  );
  return {
    ...t,
    /** Cached tokens that were within the ceiling, over the ceiling */
    achievedShare: t.possible > 0 ? (t.possible - t.recomputed) / t.possible : null,
  };
}

/** A latency of the catalog at a statistic, as the per-turn overlay names it. */
const latencyAt = (id: "ttft" | "e2e", stat: "p50" | "p90") => ({
  label: metricAtStat(METRICS[id], stat),
  unit: METRICS[id].unit,
  direction: METRICS[id].direction,
});

/** What the compare page overlays per turn across runs; latencies are the metric catalog's. */
export const TURN_COMPARE_METRICS = {
  ttftP50: latencyAt("ttft", "p50"),
  ttftP90: latencyAt("ttft", "p90"),
  e2eP50: latencyAt("e2e", "p50"),
  inputMean: { label: "prompt length mean", unit: "tokens", direction: "neutral" },
  hitPct: { label: "cache hit rate", unit: "%", direction: "higher" },
  possiblePct: { label: "possible reuse (ceiling)", unit: "%", direction: "neutral" },
  achievedPct: { label: "possible reuse served", unit: "%", direction: "higher" },
} satisfies Record<string, { label: string; unit: string; direction: Direction }>;
export type TurnCompareMetric = keyof typeof TURN_COMPARE_METRICS;
export const TURN_COMPARE_METRIC_IDS = Object.keys(TURN_COMPARE_METRICS) as TurnCompareMetric[];

function turnValue(r: TurnRow, metric: TurnCompareMetric): number | null {
  switch (metric) {
    case "ttftP50":
      return r.ttftMs?.p50 ?? null;
    case "ttftP90":
      return r.ttftMs?.p90 ?? null;
    case "e2eP50":
      return r.e2eMs?.p50 ?? null;
    case "inputMean":
      return r.inputTokens?.mean ?? null;
    case "hitPct":
      return r.hitRate === null ? null : r.hitRate * 100;
    case "possiblePct":
      return r.possibleRate === null ? null : r.possibleRate * 100;
    case "achievedPct":
      return r.reuse && r.reuse.possibleTokens > 0
        ? (100 * (r.reuse.possibleTokens - r.reuse.recomputedReusableTokens)) / r.reuse.possibleTokens
        : null;
  }
}

export interface TurnCompareRow {
  turn: number;
  label: string;
  /** Run id → the run's value at this turn, null when it has none */
  values: Record<string, number | null>;
  /**
   * Run id → the change against the baseline run at this turn: relative (fraction) for
   * latencies and lengths, percentage points for the rates; null when either side is missing.
   */
  deltas: Record<string, number | null>;
}

/**
 * One row per turn index any run has, each run's value of `metric` at it and its change against
 * `baselineId` at the same turn. Rows of pooled turns (≥ 99) line up by their index.
 */
export function compareTurnRows(
  runs: ReadonlyArray<{ id: string; payload: TurnsPayload }>,
  metric: TurnCompareMetric,
  baselineId: string,
): TurnCompareRow[] {
  const turns = new Map<number, { label: string; byRun: Map<string, TurnRow> }>();
  for (const { id, payload } of runs)
    for (const r of payload.rows) {
      const t = turns.get(r.turn) ?? { label: turnLabel(r), byRun: new Map() };
      t.byRun.set(id, r);
      turns.set(r.turn, t);
    }
  const points = metric === "hitPct" || metric === "possiblePct" || metric === "achievedPct";
  return [...turns.entries()]
    .sort(([a], [b]) => a - b)
    .map(([turn, t]) => {
      const values: Record<string, number | null> = {};
      for (const { id } of runs) {
        const r = t.byRun.get(id);
        values[id] = r ? turnValue(r, metric) : null;
      }
      const base = values[baselineId] ?? null;
      const deltas: Record<string, number | null> = {};
      for (const { id } of runs) {
        const v = values[id];
        deltas[id] =
          v === null || base === null || id === baselineId
            ? null
            : points
              ? v - base
              : base === 0
                ? null
                : (v - base) / base;
      }
      return { turn, label: t.label, values, deltas };
    });
}

export interface IntervalReuseRow {
  /** Seconds from the first interval's start */
  t: number;
  /** Tokens per second of the interval, so a short or merged interval draws at its rate */
  gpu: number | null;
  external: number | null;
  recomputed: number | null;
  fresh: number | null;
  ceiling: number | null;
  prompt: number | null;
  /** The interval's counts as stored, for the table and the CSV */
  promptTokens: number | null;
  gpuTokens: number | null;
  externalTokens: number | null;
  recomputedTokens: number | null;
  newTokens: number | null;
  possibleTokens: number | null;
  requests: number;
  durationS: number | null;
}

/** Tokens of an interval per second of it; null without a count or a positive duration. */
function perSecond(v: number | null, durationS: number | null): number | null {
  return v === null || durationS === null || !(durationS > 0) ? null : v / durationS;
}

/** An interval's place and duration, and each band of its stack as tokens per second of it. */
function stackRates<K extends string>(
  q: { t: number; durationS: number | null },
  tokens: Record<K, number | null>,
): { t: number; durationS: number | null } & Record<K, number | null> {
  const rates = {} as Record<K, number | null>;
  for (const k of Object.keys(tokens) as K[]) rates[k] = perSecond(tokens[k], q.durationS);
  return { t: q.t, durationS: q.durationS, ...rates };
}

/** Each count summed over the items `counts` gives them for (an item it answers null for is left out). */
function sums<T, K extends string>(
  items: readonly T[],
  keys: readonly K[],
  counts: (item: T) => Record<K, number> | null,
): Record<K, number> {
  const total = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const item of items) {
    const c = counts(item);
    if (c) for (const k of keys) total[k] += c[k];
  }
  return total;
}

/**
 * The reuse stack per interval as rates: gpu + external + recomputed + fresh = prompt in every
 * row where the engines counted the interval. A row without a duration or a prompt count draws
 * nothing (null), never 0.
 */
export function intervalReuseRows(p: ReuseIntervalsPayload): IntervalReuseRow[] {
  return p.points.map((q) => ({
    ...stackRates(q, {
      gpu: q.gpuTokens,
      external: q.externalTokens,
      recomputed: q.recomputedReusableTokens,
      fresh: q.newTokens,
      ceiling: q.possibleTokens,
      prompt: q.promptTokens,
    }),
    promptTokens: q.promptTokens,
    gpuTokens: q.gpuTokens,
    externalTokens: q.externalTokens,
    recomputedTokens: q.recomputedReusableTokens,
    newTokens: q.newTokens,
    possibleTokens: q.possibleTokens,
    requests: q.requests,
  }));
}

export interface EndpointReuseRow {
  t: number;
  gpu: number | null;
  external: number | null;
  computed: number | null;
  promptTokens: number | null;
  gpuTokens: number | null;
  externalTokens: number | null;
  computedTokens: number | null;
  durationS: number | null;
}

/** One endpoint's stack as rates: gpu + external + computed = its prompt tokens per second. */
export function endpointReuseRows(e: EndpointReuse): EndpointReuseRow[] {
  return e.points.map((q) => ({
    ...stackRates(q, { gpu: q.gpuTokens, external: q.externalTokens, computed: q.computedTokens }),
    promptTokens: q.promptTokens,
    gpuTokens: q.gpuTokens,
    externalTokens: q.externalTokens,
    computedTokens: q.computedTokens,
  }));
}

/** One endpoint's totals over the intervals its counters cover. */
export function endpointReuseTotals(e: EndpointReuse) {
  return sums(e.points, ["prompt", "gpu", "external", "computed"], (q) =>
    q.promptTokens === null
      ? null
      : {
          prompt: q.promptTokens,
          gpu: q.gpuTokens ?? 0,
          external: q.externalTokens ?? 0,
          computed: q.computedTokens ?? 0,
        },
  );
}

/** Run totals of the interval stack: shares of the possible reuse served by each tier. */
export function intervalReuseTotals(p: ReuseIntervalsPayload) {
  const t = sums(p.points, ["prompt", "gpu", "external", "recomputed", "possible"], (q) =>
    q.promptTokens === null || q.recomputedReusableTokens === null
      ? null
      : {
          prompt: q.promptTokens,
          gpu: q.gpuTokens ?? 0,
          external: q.externalTokens ?? 0,
          recomputed: q.recomputedReusableTokens,
          possible: Math.min(q.possibleTokens ?? 0, q.promptTokens),
        },
  );
  return {
    ...t,
    /** Of the possible reuse, the share some tier served */
    achievedShare: t.possible > 0 ? (t.possible - t.recomputed) / t.possible : null,
  };
}

/** One compared run's reuse stack, as shares of its prompt tokens (percent). */
export interface CompareReuseRow {
  runId: string;
  /** "intervals": the engines' counters per tier; "turns": the responses' usage, tiers not told apart */
  source: "intervals" | "turns";
  gpuPct: number;
  /** Null when the run's counters name no host/external tier (or the source cannot tell) */
  externalPct: number | null;
  recomputedPct: number;
  newPct: number;
  possiblePct: number;
  /** Of the possible reuse, the share some tier served; null when nothing was reusable */
  achievedPct: number | null;
  promptTokens: number;
}

/**
 * A run's stack for the compare page: from the per-interval payload when the run has one (it
 * splits the tiers), else from the per-turn totals (cached tokens of any tier count as GPU there
 * is no way to tell: `externalPct` null). Null when neither has prompt tokens.
 */
export function compareReuseRow(
  runId: string,
  intervals: ReuseIntervalsPayload | null,
  turns: TurnsPayload | null,
): CompareReuseRow | null {
  if (intervals) {
    const t = intervalReuseTotals(intervals);
    if (t.prompt > 0) return shareRow(runId, "intervals", t, intervals.externalSource !== null);
  }
  if (turns) {
    const t = reuseTotals(turns);
    if (t.prompt > 0) return shareRow(runId, "turns", { ...t, gpu: t.cached, external: 0 }, false);
  }
  return null;
}

/** A run's reuse totals as percent of its prompt tokens; `externalPct` null unless `tiersTold`. */
function shareRow(
  runId: string,
  source: CompareReuseRow["source"],
  t: ReturnType<typeof intervalReuseTotals>,
  tiersTold: boolean,
): CompareReuseRow {
  const pct = (v: number) => (100 * v) / t.prompt;
  return {
    runId,
    source,
    gpuPct: pct(t.gpu),
    externalPct: tiersTold ? pct(t.external) : null,
    recomputedPct: pct(t.recomputed),
    newPct: pct(t.prompt - t.gpu - t.external - t.recomputed),
    possiblePct: pct(t.possible),
    achievedPct: t.achievedShare === null ? null : t.achievedShare * 100,
    promptTokens: t.prompt,
  };
}

/** Each row's change against the baseline's, in percentage points; null on the baseline or a missing side. */
export function compareReuseDeltas(
  rows: readonly CompareReuseRow[],
  baselineId: string,
): Record<string, Record<"gpuPct" | "externalPct" | "recomputedPct" | "achievedPct", number | null>> {
  const base = rows.find((r) => r.runId === baselineId) ?? null;
  const out: ReturnType<typeof compareReuseDeltas> = {};
  for (const r of rows) {
    const d = (k: "gpuPct" | "externalPct" | "recomputedPct" | "achievedPct") => {
      const a = r[k];
      const b = base?.[k] ?? null;
      return r === base || a === null || b === null ? null : a - b;
    };
    out[r.runId] = {
      gpuPct: d("gpuPct"),
      externalPct: d("externalPct"),
      recomputedPct: d("recomputedPct"),
      achievedPct: d("achievedPct"),
    };
  }
  return out;
}
