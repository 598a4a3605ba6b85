/**
 * Goodput under SLOs (docs/metrics.md §Goodput), pure, over every per-request row of a run:
 * - a per-request SLO is met by a request whose value is at most the threshold; a request
 *   without the value (no TTFT recorded, a failed request) does not meet it;
 * - a percentile SLO is met by the run when that percentile of the successful requests' values
 *   is at most the threshold; a run that misses one has no good requests;
 * - goodput = requests meeting every SLO ÷ the benchmark duration, and their output tokens ÷ it.
 */
import type { DerivedValue } from "@/lib/api/derived-throughput";
import type { Goodput, Slo, SloCheck, SloMetric } from "@/lib/api/slo";
import { computeStatsInSteps } from "./stats";
import { atOnce, type Steps } from "./steps";

export interface GoodputRow {
  ok: boolean;
  ttftMs: number | null;
  tpotMs: number | null;
  e2eMs: number | null;
  outputTokens: number | null;
}

const KEY: Record<SloMetric, "ttftMs" | "tpotMs" | "e2eMs"> = {
  ttft: "ttftMs",
  tpot: "tpotMs",
  e2e: "e2eMs",
};
const finite = (v: number | null): v is number => v !== null && Number.isFinite(v);

function meets(row: GoodputRow, slo: Slo): boolean {
  const v = row[KEY[slo.metric]];
  return row.ok && finite(v) && v <= slo.thresholdMs;
}

/** Rows one step of `computeGoodputInSteps` reads in a pass. */
const ROWS_A_STEP = 4_000;

export function computeGoodput(
  rows: readonly GoodputRow[],
  slos: readonly Slo[],
  durationS: number | null,
): GoodputCounts {
  return atOnce(computeGoodputInSteps(rows, slos, durationS));
}

type GoodputCounts = Pick<
  Goodput,
  "requests" | "meeting" | "share" | "checks" | "goodputReqPerS" | "goodputTokPerS"
>;

/**
 * computeGoodput in steps (./steps.ts): every pass over the rows takes `ROWS_A_STEP` of them a
 * step, and a percentile's sort is in steps (./stats.ts `computeStatsInSteps`), so a server
 * computing the goodput of a 200,000-request run gives other requests a turn between them.
 */
export function* computeGoodputInSteps(
  rows: readonly GoodputRow[],
  slos: readonly Slo[],
  durationS: number | null,
): Steps<GoodputCounts> {
  const perRequest = slos.filter((s) => s.mode === "req");
  const checks: SloCheck[] = [];
  for (const slo of slos) {
    if (slo.mode === "req") {
      let missed = 0;
      for (let i = 0; i < rows.length; i++) {
        if (!meets(rows[i], slo)) missed++;
        if ((i + 1) % ROWS_A_STEP === 0) yield;
      }
      checks.push({ slo, missed, observedMs: null, met: missed === 0 });
      continue;
    }
    // One pass into a typed array (the statistics keep the finite values): three array passes
    // over a 200,000-request run made as many arrays of that size.
    const key = KEY[slo.metric];
    const values = new Float64Array(rows.length);
    let n = 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (r.ok) values[n++] = r[key] ?? NaN;
      if ((i + 1) % ROWS_A_STEP === 0) yield;
    }
    const stats = yield* computeStatsInSteps(values.subarray(0, n));
    const observed = stats ? (stats[slo.mode] ?? null) : null;
    checks.push({
      slo,
      missed: null,
      observedMs: observed,
      met: observed !== null && observed <= slo.thresholdMs,
    });
  }
  const runMeets = checks.every((c) => c.slo.mode === "req" || c.met);
  let meeting = 0;
  let tokens = 0;
  let tokensKnown = true;
  if (runMeets)
    for (let i = 0; i < rows.length; i++) {
      if ((i + 1) % ROWS_A_STEP === 0) yield;
      const r = rows[i];
      if (!r.ok || !perRequest.every((s) => meets(r, s))) continue;
      meeting++;
      if (finite(r.outputTokens)) tokens += r.outputTokens;
      else tokensKnown = false;
    }
  const perS = (n: number, what: string): DerivedValue => {
    if (rows.length === 0) return { value: null, reason: "no per-request rows" };
    if (!durationS)
      return { value: null, reason: `benchmark duration unknown, so ${what} per second is too` };
    return { value: n / durationS, reason: null };
  };
  return {
    requests: rows.length,
    meeting,
    share: rows.length > 0 ? meeting / rows.length : null,
    checks,
    goodputReqPerS: perS(meeting, "good requests"),
    goodputTokPerS: tokensKnown
      ? perS(tokens, "good tokens")
      : { value: null, reason: "output tokens not recorded for every good request" },
  };
}
