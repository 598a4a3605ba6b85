/**
 * The comparability doctor (docs/metrics.md §Comparable runs): is an A/B between two runs fair?
 * Every difference in the workload, the system or the measurement that makes a verdict unsafe is
 * a reason, with each side's value and the evidence it was read from. A blocking reason makes the
 * pair "not comparable" (compare and the gate withhold their verdicts) unless the user accepts
 * that difference by name; a caveat leaves the verdict standing, "comparable with caveats".
 */
import type {
  AcceptedDifferences,
  ComparabilityReason,
  ComparabilityReport,
  ComparabilityVerdict,
  ReasonName,
} from "@/lib/api/comparability-schema";
import type { RoleFact, RunFacts } from "@/lib/api/run-facts";
import type { Collectors, RequestsBlock, RunSummary, Stats, SummaryBlocks } from "@/lib/api/schemas";
import { sourceWords } from "@/lib/api/source-words";
import { plural } from "@/lib/format-number";
import { effectiveCollectors, COLLECTOR_FLAGS, type EffectiveCollector } from "./collectors-mismatch";
import { configReasons } from "./config-differences";

type ReasonGroup = ComparabilityReason["group"];
type ReasonSeverity = ComparabilityReason["severity"];

/** Mean and median lengths within this relative gap are one workload (random lengths, early stops). */
export const LENGTH_TOLERANCE = 0.1;
/** p99 lengths are noisier: within this relative gap. */
export const LENGTH_TAIL_TOLERANCE = 0.2;
/** The two-sample KS test needs this many per-request lengths on each side. */
export const KS_MIN_SAMPLES = 20;
/** Distributions differ when the KS p-value is below this … */
export const KS_ALPHA = 0.01;
/** … and the largest gap between the two CDFs is at least this (a tiny shift in a huge run is no new workload). */
export const KS_MIN_D = 0.1;
/** Request counts that differ by more than this relative gap are a caveat … */
export const REQUEST_COUNT_TOLERANCE = 0.1;
/** … and block when one is more than this many times the other. */
export const REQUEST_COUNT_BLOCK_FACTOR = 10;
/** A run of fewer requests than this has no distribution to read percentiles from: a caveat. */
export const MIN_DISTRIBUTION_REQUESTS = 20;
/** Error or cancellation rates that differ by at least this many points are a caveat … */
export const RATE_CAVEAT_POINTS = 0.01;
/** … and block when they differ by at least this much with either run at or above RATE_BLOCK_LEVEL. */
export const RATE_BLOCK_POINTS = 0.02;
export const RATE_BLOCK_LEVEL = 0.05;
/** Achieved concurrency below this share of the requested is a saturated load generator. */
export const SATURATION_SHARE = 0.9;
/** Client-side queue wait at least this share of the TTFT (same percentile) is a saturated load generator … */
export const QUEUE_WAIT_SHARE = 0.1;
/** … when it is also at least this long (below it, clock skew between aiperf's processes). */
export const QUEUE_WAIT_FLOOR_MS = 1;

/** What the doctor reads of a run: its facts and what its summary stored. */
export interface DoctorRun {
  facts: Pick<
    RunFacts,
    | "model"
    | "gpuModel"
    | "gpuCount"
    | "backend"
    | "backendVersion"
    | "roles"
    | "isl"
    | "osl"
    | "concurrency"
    | "requestRate"
  >;
  requests?:
    | (Pick<
        RequestsBlock,
        | "count"
        | "errorCount"
        | "cancelledCount"
        | "warmupCount"
        | "warmupSource"
        | "inputTokens"
        | "outputTokens"
      > &
        Partial<Pick<RequestsBlock, "ttftMs" | "e2eMs" | "source">>)
    | null;
  info?: SummaryBlocks["info"];
  collectors?: Collectors;
  collectorsInferredFrom?: RunSummary["collectorsInferredFrom"];
  timeBreakdown?: RunSummary["timeBreakdown"];
}

/** Per-request token counts where the run's request rows exist (ascending or not). */
export interface TokenCounts {
  input: Float64Array | null;
  output: Float64Array | null;
}

const norm = (s: string) => s.trim().toLowerCase();
const int = (v: number) => Math.round(v).toLocaleString("en-US");
const tokens = (v: number) => `${int(v)} tokens`;
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const rel = (a: number, b: number) => {
  const scale = Math.max(Math.abs(a), Math.abs(b));
  return scale > 0 ? Math.abs(a - b) / scale : 0;
};

function gpuText(f: DoctorRun["facts"]): string | null {
  const model = f.gpuModel?.value ?? null;
  const count = f.gpuCount?.value ?? null;
  if (model === null && count === null) return null;
  if (model === null) return `${count} GPU${count === 1 ? "" : "s"}`;
  return count === null ? model : `${count} × ${model}`;
}

function rolesText(roles: RoleFact[]): string {
  return roles
    .map((r) => {
      const dims = (["tp", "pp", "ep", "dp"] as const)
        .filter((k) => r[k] !== null)
        .map((k) => `${k.toUpperCase()}${r[k]}`)
        .join(" ");
      return `${r.count !== null ? `${r.count} × ` : ""}${r.role}${dims ? ` ${dims}` : ""}`;
    })
    .join(", ");
}

/**
 * Whether two runs' roles differ: another set of roles (disaggregated against aggregated), or a
 * role's worker count, TP, PP, EP or DP where both runs state it (an unstated one is no difference).
 */
function rolesDiffer(a: RoleFact[], b: RoleFact[]): boolean {
  const byRole = (roles: RoleFact[]) => new Map(roles.map((r) => [norm(r.role), r]));
  const ma = byRole(a);
  const mb = byRole(b);
  if (ma.size !== mb.size || [...ma.keys()].some((k) => !mb.has(k))) return true;
  return [...ma].some(([k, x]) => {
    const y = mb.get(k)!;
    return (["count", "tp", "pp", "ep", "dp"] as const).some(
      (d) => x[d] !== null && y[d] !== null && x[d] !== y[d],
    );
  });
}

/**
 * Two-sample Kolmogorov–Smirnov test: D is the largest gap between the two empirical CDFs; p the
 * asymptotic two-sided p-value (Kolmogorov's distribution at √(n·m/(n+m))·D, with Stephens'
 * small-sample correction), as scipy's `ks_2samp(method="asymp")` gives it.
 */
export function ksTwoSample(x: ArrayLike<number>, y: ArrayLike<number>): { d: number; p: number } {
  const a = ascending(x);
  const b = ascending(y);
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return { d: 0, p: 1 };
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < n && j < m) {
    const v = Math.min(a[i], b[j]);
    while (i < n && a[i] === v) i++;
    while (j < m && b[j] === v) j++;
    d = Math.max(d, Math.abs(i / n - j / m));
  }
  const en = Math.sqrt((n * m) / (n + m));
  return { d, p: kolmogorovQ((en + 0.12 + 0.11 / en) * d) };
}

/**
 * The values in ascending order: as given when they already are (a server sorts a big run's
 * token counts in steps before the doctor tests them, lib/runs/comparability.ts), else a sorted copy.
 */
function ascending(x: ArrayLike<number>): ArrayLike<number> {
  for (let i = 1; i < x.length; i++) if (!(x[i - 1] <= x[i])) return Float64Array.from(x).sort();
  return x;
}

/** P(K > λ) of Kolmogorov's distribution: 2 Σ (−1)^(k−1) e^(−2k²λ²). */
export function kolmogorovQ(lambda: number): number {
  if (lambda < 0.2) return 1;
  let sum = 0;
  for (let k = 1; k <= 100; k++) {
    const term = 2 * (k % 2 === 1 ? 1 : -1) * Math.exp(-2 * k * k * lambda * lambda);
    sum += term;
    if (Math.abs(term) < 1e-12) break;
  }
  return Math.min(1, Math.max(0, sum));
}

const pText = (p: number) => (p < 0.001 ? "p < 0.001" : `p = ${p.toFixed(3)}`);

/** One length (ISL or OSL): rows tested with KS, else the stored percentiles, else the stated means. */
function lengthReason(
  name: "isl" | "osl",
  a: DoctorRun,
  b: DoctorRun,
  rowsA: Float64Array | null,
  rowsB: Float64Array | null,
): Omit<ComparabilityReason, "accepted"> | null {
  const label = name === "isl" ? "ISL" : "OSL";
  const base = { name, group: "workload" as const, severity: "blocking" as const };
  if (rowsA && rowsB && rowsA.length >= KS_MIN_SAMPLES && rowsB.length >= KS_MIN_SAMPLES) {
    const { d, p } = ksTwoSample(rowsA, rowsB);
    if (p >= KS_ALPHA || d < KS_MIN_D) return null;
    const mean = (v: Float64Array) => v.reduce((s, x) => s + x, 0) / v.length;
    return {
      ...base,
      label: `${label} distribution`,
      a: `mean ${tokens(mean(rowsA))}`,
      b: `mean ${tokens(mean(rowsB))}`,
      evidence: `two-sample KS on the per-request token counts: D = ${d.toFixed(2)}, ${pText(p)} (n = ${int(rowsA.length)} vs ${int(rowsB.length)}; differs at p < ${KS_ALPHA} and D ≥ ${KS_MIN_D})`,
    };
  }
  const key = name === "isl" ? "inputTokens" : "outputTokens";
  const sa: Stats | null | undefined = a.requests?.[key];
  const sb: Stats | null | undefined = b.requests?.[key];
  if (sa && sb) {
    const checks: Array<[string, number, number, number]> = [
      ["mean", sa.mean, sb.mean, LENGTH_TOLERANCE],
      ["p50", sa.p50, sb.p50, LENGTH_TOLERANCE],
      ["p99", sa.p99, sb.p99, LENGTH_TAIL_TOLERANCE],
    ];
    const off = checks.filter(([, x, y, tol]) => rel(x, y) > tol);
    if (off.length === 0) return null;
    const [stat, x, y] = off[0];
    return {
      ...base,
      label,
      a: `${stat} ${tokens(x)}`,
      b: `${stat} ${tokens(y)}`,
      evidence: `${off.map(([s, p, q, tol]) => `${s} ${int(p)} vs ${int(q)} (beyond ${tol * 100}%)`).join(", ")}; no per-request rows on both sides for a KS test`,
    };
  }
  const fa = a.facts[name];
  const fb = b.facts[name];
  if (!fa || !fb || rel(fa.value, fb.value) <= LENGTH_TOLERANCE) return null;
  return {
    ...base,
    label,
    a: tokens(fa.value),
    b: tokens(fb.value),
    evidence: `${fa.source} vs ${fb.source}, beyond ${LENGTH_TOLERANCE * 100}%`,
  };
}

type WarmupState = "warmed" | "none" | null;

function warmupState(r: DoctorRun): WarmupState {
  const q = r.requests;
  if (!q || !q.warmupSource || q.warmupSource === "tool") return null;
  if (q.warmupCount === null) return q.warmupSource === "config" ? "warmed" : null;
  return q.warmupCount > 0 ? "warmed" : "none";
}

function warmupText(r: DoctorRun): string {
  const q = r.requests!;
  return warmupState(r) === "none"
    ? "no warm-up"
    : q.warmupCount === null
      ? "a warm-up of unknown size, excluded"
      : `${plural(q.warmupCount, "warm-up request", "warm-up requests")}, excluded`;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * Everything that makes a verdict between run `a` (the baseline) and run `b` unsafe. A fact one
 * run does not state is no difference: it cannot be shown, and refusing on it would refuse every
 * run whose files do not say. `accept` names the differences the user means to compare.
 */
export function diagnose(
  a: DoctorRun,
  b: DoctorRun,
  opts: { accept?: AcceptedDifferences; tokens?: [TokenCounts | null, TokenCounts | null] } = {},
): ComparabilityReport {
  const out: Array<Omit<ComparabilityReason, "accepted">> = [];
  const fa = a.facts;
  const fb = b.facts;
  const text = (
    name: ReasonName,
    group: ReasonGroup,
    severity: ReasonSeverity,
    label: string,
    x: { value: string; source: string } | null,
    y: { value: string; source: string } | null,
  ) => {
    if (x && y && norm(x.value) !== norm(y.value))
      out.push({
        name,
        group,
        severity,
        label,
        a: x.value,
        b: y.value,
        evidence: sources(x.source, y.source),
      });
  };

  const fromConfig = configReasons(a.info, b.info);
  const configOf = (group: ReasonGroup) => fromConfig.filter((r) => r.group === group);

  // Workload
  text("model", "workload", "blocking", "model", fa.model, fb.model);
  for (const r of configOf("workload")) out.push(r);
  const [ta, tb] = opts.tokens ?? [null, null];
  for (const name of ["isl", "osl"] as const) {
    const r = lengthReason(
      name,
      a,
      b,
      ta?.[name === "isl" ? "input" : "output"] ?? null,
      tb?.[name === "isl" ? "input" : "output"] ?? null,
    );
    if (r) out.push(r);
  }
  if (fa.concurrency && fb.concurrency && fa.concurrency.value !== fb.concurrency.value)
    out.push({
      name: "concurrency",
      group: "workload",
      severity: "blocking",
      label: "concurrency",
      a: String(fa.concurrency.value),
      b: String(fb.concurrency.value),
      evidence: sources(fa.concurrency.source, fb.concurrency.source),
    });
  if (fa.requestRate && fb.requestRate && rel(fa.requestRate.value, fb.requestRate.value) > 1e-9)
    out.push({
      name: "request-rate",
      group: "workload",
      severity: "blocking",
      label: "request rate",
      a: `${fa.requestRate.value} req/s`,
      b: `${fb.requestRate.value} req/s`,
      evidence: sources(fa.requestRate.source, fb.requestRate.source),
    });
  const ca = requestCountOf(a);
  const cb = requestCountOf(b);
  if (ca && cb && rel(ca.value, cb.value) > REQUEST_COUNT_TOLERANCE) {
    const factor = Math.max(ca.value, cb.value) / Math.min(ca.value, cb.value);
    const block = factor > REQUEST_COUNT_BLOCK_FACTOR;
    out.push({
      name: "request-count",
      group: "workload",
      severity: block ? "blocking" : "caveat",
      label: "request count",
      a: plural(ca.value, "request", "requests"),
      b: plural(cb.value, "request", "requests"),
      evidence: block
        ? `one run holds ${formatFactor(factor)} the other's requests (more than ${REQUEST_COUNT_BLOCK_FACTOR}×: not comparable): the smaller is mostly ramp-up and ramp-down, and its percentiles rest on a handful of requests; ${sources(ca.source, cb.source)}`
        : `profiling requests differ by more than ${REQUEST_COUNT_TOLERANCE * 100}%: a shorter run holds less of the steady state and its tail percentiles rest on fewer requests; ${sources(ca.source, cb.source)}`,
    });
  }
  const few = [ca, cb].filter((c) => c !== null && c.value < MIN_DISTRIBUTION_REQUESTS);
  if (ca && cb && few.length > 0)
    out.push({
      name: "sample-size",
      group: "workload",
      severity: "caveat",
      label: "too few requests for a distribution",
      a: plural(ca.value, "request", "requests"),
      b: plural(cb.value, "request", "requests"),
      evidence: `${few.length === 2 ? "both runs hold" : ca.value < MIN_DISTRIBUTION_REQUESTS ? "the first run holds" : "the second run holds"} fewer than ${MIN_DISTRIBUTION_REQUESTS} requests: its percentiles are single requests' values (the p50 of one request is its p99), so a change is one request's luck as much as the system's`,
    });
  const turnsA = num(a.info?.maxTurnIndex);
  const turnsB = num(b.info?.maxTurnIndex);
  if (turnsA !== null || turnsB !== null) {
    const t = (v: number | null) =>
      v !== null && v > 0 ? `up to ${int(v + 1)} turns a conversation` : "single turn";
    // A run without turn rows is single-turn only when its requests are known.
    const known = (v: number | null, r: DoctorRun) => v !== null || (r.requests?.count ?? 0) > 0;
    if (known(turnsA, a) && known(turnsB, b) && (turnsA ?? 0) !== (turnsB ?? 0)) {
      const multiBoth = (turnsA ?? 0) > 0 && (turnsB ?? 0) > 0;
      out.push({
        name: "turns",
        group: "workload",
        severity: multiBoth ? "caveat" : "blocking",
        label: "multi-turn shape",
        a: t(turnsA),
        b: t(turnsB),
        evidence: multiBoth
          ? "both runs are multi-turn, with different conversation lengths: later turns carry longer prompts and more cache reuse"
          : "one run is multi-turn and the other single turn: prompts grow and reuse the cache turn by turn in one only",
      });
    }
  }

  // System
  const am = fa.gpuModel?.value ?? null;
  const bm = fb.gpuModel?.value ?? null;
  if (
    (am !== null && bm !== null && norm(am) !== norm(bm)) ||
    (fa.gpuCount && fb.gpuCount && fa.gpuCount.value !== fb.gpuCount.value)
  )
    out.push({
      name: "gpu",
      group: "system",
      severity: "blocking",
      label: "GPU",
      a: gpuText(fa)!,
      b: gpuText(fb)!,
      evidence: sources(
        fa.gpuModel?.source ?? fa.gpuCount!.source,
        fb.gpuModel?.source ?? fb.gpuCount!.source,
      ),
    });
  text("backend", "system", "blocking", "backend", fa.backend, fb.backend);
  text("backend-version", "system", "caveat", "backend version", fa.backendVersion, fb.backendVersion);
  if (fa.roles && fb.roles && fa.roles.value.length > 0 && fb.roles.value.length > 0)
    if (rolesDiffer(fa.roles.value, fb.roles.value))
      out.push({
        name: "parallelism",
        group: "system",
        severity: "blocking",
        label: "parallelism",
        a: rolesText(fa.roles.value),
        b: rolesText(fb.roles.value),
        evidence: sources(fa.roles.source, fb.roles.source),
      });

  for (const r of configOf("system")) out.push(r);

  // Measurement
  const measured = measuredByReason(a, b);
  if (measured) out.push(measured);
  if (a.collectors && b.collectors) {
    const of = (r: DoctorRun & { collectors: Collectors }) =>
      effectiveCollectors({
        collectors: r.collectors,
        collectorsInferredFrom: r.collectorsInferredFrom,
        timeBreakdown: r.timeBreakdown ?? null,
      });
    const ea = of({ ...a, collectors: a.collectors });
    const eb = of({ ...b, collectors: b.collectors });
    const differ = (Object.keys(COLLECTOR_FLAGS) as Array<keyof Collectors>).filter(
      (k) => ea[k].value !== null && eb[k].value !== null && ea[k].value !== eb[k].value,
    );
    if (differ.length > 0) {
      const side = (e: typeof ea) =>
        differ.map((k) => `${COLLECTOR_FLAGS[k]} ${e[k].value ? "on" : "off"}`).join(", ");
      const how = (e: EffectiveCollector) => e.evidence ?? e.source;
      // Known from a file or proved by the data, the difference blocks; implied by a config flag
      // only (on one side or both), it hangs on the Dynamo version and is a caveat.
      const implied = differ.every((k) => ea[k].source === "implied" || eb[k].source === "implied");
      out.push({
        name: "collectors",
        group: "measurement",
        severity: implied ? "caveat" : "blocking",
        label: "performance collectors",
        a: side(ea),
        b: side(eb),
        evidence: `on in one run only, they cost throughput and latency in that run alone (docs/metrics.md §Collectors); ${differ
          .map((k) => `${COLLECTOR_FLAGS[k]}: ${how(ea[k])} vs ${how(eb[k])}`)
          .join("; ")}`,
      });
    }
  }
  const wa = warmupState(a);
  const wb = warmupState(b);
  if (wa !== null && wb !== null && wa !== wb)
    out.push({
      name: "warmup",
      group: "measurement",
      severity: "caveat",
      label: "warm-up",
      a: warmupText(a),
      b: warmupText(b),
      evidence:
        "the run without a warm-up counts its first requests (compilation, empty caches, connection setup) in its figures",
    });
  for (const [name, label, of] of [
    ["errors", "error rate", (q: NonNullable<DoctorRun["requests"]>) => q.errorCount],
    ["cancellations", "cancellation rate", (q: NonNullable<DoctorRun["requests"]>) => q.cancelledCount],
  ] as const) {
    const qa = a.requests;
    const qb = b.requests;
    if (!qa || !qb || !qa.count || !qb.count) continue;
    const na = of(qa);
    const nb = of(qb);
    if (na === undefined || nb === undefined) continue;
    const ra = na / qa.count;
    const rb = nb / qb.count;
    const gap = Math.abs(ra - rb);
    if (gap < RATE_CAVEAT_POINTS) continue;
    const block = gap >= RATE_BLOCK_POINTS && Math.max(ra, rb) >= RATE_BLOCK_LEVEL;
    out.push({
      name,
      group: "measurement",
      severity: block ? "blocking" : "caveat",
      label,
      a: `${pct(ra)} (${int(na)} of ${int(qa.count)})`,
      b: `${pct(rb)} (${int(nb)} of ${int(qb.count)})`,
      evidence: `rates ${(gap * 100).toFixed(1)} points apart; the figures are of the requests that succeeded, so a run that fails or cancels more is judged on a different set${block ? ` (≥ ${RATE_BLOCK_POINTS * 100} points with a run at ≥ ${RATE_BLOCK_LEVEL * 100}%: not comparable)` : ""}`,
    });
  }
  const sa = saturationOf(a);
  const sb = saturationOf(b);
  if (sa.saturated || sb.saturated) {
    const which =
      sa.saturated && sb.saturated ? "both runs" : sa.saturated ? "the first run" : "the second run";
    const why = [...new Set([...sa.evidence, ...sb.evidence])];
    out.push({
      name: "saturation",
      group: "measurement",
      severity: "caveat",
      label: "load generator",
      a: sa.text,
      b: sb.text,
      evidence: `saturated load generator in ${which}: ${why.join("; ")}; the load generator (or the server's admission) did not hold the load, so the run measured a lighter one than it asked for`,
    });
  }

  for (const r of configOf("measurement")) out.push(r);

  const accept = opts.accept ?? new Set<ReasonName>();
  const reasons = out.map((r) => ({
    ...r,
    accepted: r.severity === "blocking" && (accept === "all" || accept.has(r.name)),
  }));
  return { verdict: verdictOf(reasons), reasons };
}

/**
 * Whether a run's load generator held the load it was asked for (docs/metrics.md §Comparable
 * runs): aiperf's effective (time-weighted) concurrency below SATURATION_SHARE of the requested,
 * or client-side queueing (aiperf's wait from a request's credit being issued to its send, the
 * run info's `queueWaitP50Ms` / `queueWaitP90Ms`, from aiperf's summary or its records) at least
 * QUEUE_WAIT_SHARE of the TTFT at the same percentile (request latency where no TTFT was
 * measured) and at least QUEUE_WAIT_FLOOR_MS. The side's text also gives the wait's p99 and max
 * and, from records, how many requests waited that long against their own TTFT; a run whose
 * files carry no queue wait says "queue wait not measured", never a wait of 0.
 */
export function saturationOf(r: DoctorRun): { saturated: boolean; text: string; evidence: string[] } {
  const parts: string[] = [];
  const evidence: string[] = [];
  const held = heldConcurrencyOf(r);
  if (held.text) parts.push(held.text);
  if (held.evidence) evidence.push(held.evidence);
  const w50 = num(r.info?.queueWaitP50Ms);
  const w90 = num(r.info?.queueWaitP90Ms);
  const w99 = num(r.info?.queueWaitP99Ms);
  const wMax = num(r.info?.queueWaitMaxMs);
  const count = num(r.info?.queueWaitCount);
  const judged = num(r.info?.queueWaitJudged);
  const waited = num(r.info?.queueWaited);
  const missing = num(r.info?.queueWaitMissing);
  if (w50 !== null) {
    const ttft = r.requests?.ttftMs ?? null;
    const ref = ttft ? ttft : (r.requests?.e2eMs ?? null);
    const refName = ttft ? "TTFT" : "request latency";
    const src =
      typeof r.info?.queueWaitSource === "string" ? sourceWords(r.info.queueWaitSource).text : "aiperf";
    const tail = [w99 !== null ? `p99 ${ms(w99)}` : null, wMax !== null ? `max ${ms(wMax)}` : null]
      .filter(Boolean)
      .join(", ");
    parts.push(
      `queue wait p50 ${ms(w50)}${w90 !== null ? `, p90 ${ms(w90)}` : ""}${ref ? ` against ${refName} p50 ${ms(ref.p50)}${ref.p90 !== undefined ? `, p90 ${ms(ref.p90)}` : ""}` : ""}${tail ? `; ${tail}` : ""}`,
    );
    if (judged !== null && waited !== null)
      parts.push(
        `${int(waited)} of ${int(judged)} requests (${pct(waited / judged)}) waited ≥ ${QUEUE_WAIT_SHARE * 100}% of their own ${refName}`,
      );
    const large = (wait: number | null, at: number | undefined) =>
      wait !== null && at !== undefined && wait >= QUEUE_WAIT_FLOOR_MS && wait >= QUEUE_WAIT_SHARE * at;
    const hit50 = ref ? large(w50, ref.p50) : false;
    const hit90 = ref ? large(w90, ref.p90) : false;
    if (hit50 || hit90)
      evidence.push(
        `client-side queueing (${src}${count !== null ? `, ${int(count)} requests` : ""}) at ${hit50 ? "p50" : "p90"} is at least ${QUEUE_WAIT_SHARE * 100}% of the ${refName}${judged !== null && waited !== null ? `; ${int(waited)} of ${int(judged)} requests waited that long against their own` : ""}: requests waited in the load generator before they were sent`,
      );
  } else
    parts.push(
      `queue wait not measured${missing !== null ? ` (${int(missing)} profiling records without credit_issued_ns)` : ""}`,
    );
  return {
    saturated: evidence.length > 0,
    text: parts.join("; "),
    evidence,
  };
}

/**
 * The concurrency side of the saturation reason (docs/metrics.md §Comparable runs, "Held
 * concurrency"): the run's effective concurrency (aiperf's summary, else its records) against the
 * requested one. Under a request rate the concurrency is a ceiling, not a target: it is shown, not
 * judged. A requested concurrency without a held one is "not measured", with why where known.
 */
function heldConcurrencyOf(r: DoctorRun): { text: string | null; evidence: string | null } {
  const achieved = num(r.info?.effectiveConcurrency);
  const asked = r.facts.concurrency?.value ?? null;
  const rate = r.facts.requestRate?.value ?? null;
  const source =
    typeof r.info?.effectiveConcurrencySource === "string"
      ? sourceWords(r.info.effectiveConcurrencySource).text
      : "aiperf";
  const count = num(r.info?.effectiveConcurrencyCount);
  const missing = num(r.info?.effectiveConcurrencyMissing);
  const unmeasured =
    typeof r.info?.effectiveConcurrencyUnmeasured === "string" ? r.info.effectiveConcurrencyUnmeasured : null;
  if (achieved === null) {
    if (asked === null && missing === null && unmeasured === null) return { text: null, evidence: null };
    const why =
      unmeasured ??
      (missing !== null
        ? `${int(missing)} profiling records without request_start_ns and request_end_ns`
        : null);
    return { text: `concurrency not measured${why ? ` (${why})` : ""}`, evidence: null };
  }
  if (asked === null)
    return { text: `concurrency ${achieved.toFixed(2)} held (none requested)`, evidence: null };
  if (rate !== null)
    return {
      text: `concurrency ${achieved.toFixed(2)} held, at most ${asked} at ${rate} requests/s (a ceiling, not a target)`,
      evidence: null,
    };
  const text = `concurrency ${achieved.toFixed(2)} of ${asked} requested`;
  if (achieved >= SATURATION_SHARE * asked) return { text, evidence: null };
  return {
    text,
    evidence: `effective concurrency below ${SATURATION_SHARE * 100}% of the requested (${achieved.toFixed(2)} of ${asked}; ${source}${count !== null ? `, ${int(count)} requests` : ""})`,
  };
}

/**
 * How many requests a run's figures rest on, and who counted them: the requests block (the
 * producer's count, aiperf's summary on a sampled run), else the TensorRT-LLM perf metrics' requests.
 */
export function requestCountOf(r: DoctorRun): { value: number; source: string } | null {
  const q = r.requests;
  if (q && q.count > 0) return { value: q.count, source: producerOf(q.source).name };
  const t = r.timeBreakdown?.requestCount;
  if (t && t > 0) return { value: t, source: "TensorRT-LLM perf metrics" };
  return null;
}

const formatFactor = (f: number) => `${f >= 10 ? Math.round(f) : Number(f.toFixed(1))}×`;

/** Where a requests block's figures were measured, and by which producer. */
function producerOf(source: string | undefined): { name: string; where: "client" | "frontend" } {
  if (source === "dynamo-request-trace") return { name: "Dynamo request trace", where: "frontend" };
  if (source === undefined) return { name: "a load generator", where: "client" };
  if (source.startsWith("aiperf")) return { name: "aiperf", where: "client" };
  return { name: source === "tool-summary" ? "a benchmark tool's summary" : source, where: "client" };
}

/** Where a figure was measured, said once after its producer ("aiperf at the client"). */
const WHERE_TEXT = {
  client: "the client",
  frontend: "the serving frontend",
  engine: "the engine",
} as const;

type Where = keyof typeof WHERE_TEXT;

/**
 * Where a run's per-request figures were measured (docs/metrics.md §Comparable runs, "Measured
 * by"): a load generator's client timings (its requests block), the serving frontend's trace, or
 * the engine's own stamps (TensorRT-LLM per-request perf metrics, its time breakdown). A run with
 * none (server counters alone) says nothing here.
 */
function measuredBy(r: DoctorRun): Array<{ where: Where; producer: string }> {
  const out: Array<{ where: Where; producer: string }> = [];
  if (r.requests && r.requests.count > 0) {
    const p = producerOf(r.requests.source);
    const tool = typeof r.info?.benchmarkTool === "string" ? r.info.benchmarkTool : p.name;
    out.push({ where: p.where, producer: tool });
  }
  if (r.timeBreakdown && r.timeBreakdown.requestCount > 0)
    out.push({ where: "engine", producer: "TensorRT-LLM perf metrics" });
  return out;
}

/**
 * Blocking when the two runs' per-request figures share no vantage point: a load generator's TTFT
 * and E2E include the network, HTTP, tokenisation and the client's own queue, an engine's stamps
 * none of them, so the two measure different things. A caveat when both are a client's but of
 * different tools, each with its own definitions (docs/metrics.md §Imported benchmark tools).
 */
function measuredByReason(a: DoctorRun, b: DoctorRun): Omit<ComparabilityReason, "accepted"> | null {
  const ma = measuredBy(a);
  const mb = measuredBy(b);
  if (ma.length === 0 || mb.length === 0) return null;
  // Each producer named once, then where it measured: "TensorRT-LLM perf metrics at the engine",
  // "aiperf at the client", "a load generator at the client" (was "engine (TensorRT-LLM perf
  // metrics): TensorRT-LLM perf metrics").
  const side = (m: typeof ma) => m.map((x) => `${x.producer} at ${WHERE_TEXT[x.where]}`).join(" + ");
  const shared = ma.filter((x) => mb.some((y) => y.where === x.where));
  if (shared.length === 0)
    return {
      name: "measured-by",
      group: "measurement",
      severity: "blocking",
      label: "measured by",
      a: side(ma),
      b: side(mb),
      evidence:
        "the runs' per-request figures come from different places: a load generator times each request at the client (network, HTTP, tokenisation and its own queue included), an engine's per-request metrics from the engine's stamps, a frontend's trace from the server's door; their TTFT and latency are different quantities",
    };
  const known = (x: { producer: string }) => x.producer !== "a load generator";
  const clientA = ma.find((x) => x.where === "client");
  const clientB = mb.find((x) => x.where === "client");
  if (
    clientA &&
    clientB &&
    known(clientA) &&
    known(clientB) &&
    norm(clientA.producer) !== norm(clientB.producer)
  )
    return {
      name: "measured-by",
      group: "measurement",
      severity: "caveat",
      label: "measured by",
      a: side(ma),
      b: side(mb),
      evidence: `two load generators, ${clientA.producer} and ${clientB.producer}: each times and counts requests by its own definitions (docs/metrics.md §Imported benchmark tools), so a small change may be the tools'`,
    };
  return null;
}

const ms = (v: number) => `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ms`;

function sources(x: string, y: string): string {
  return x === y ? `from ${x}` : `from ${x} and ${y}`;
}

export function verdictOf(reasons: ComparabilityReason[]): ComparabilityVerdict {
  if (reasons.some((r) => r.severity === "blocking" && !r.accepted)) return "not comparable";
  return reasons.length > 0 ? "comparable with caveats" : "comparable";
}

/** The blocking reasons not accepted, on one line: "model Qwen3-0.6B vs mock-llama-8b; GPU …". */
export function blockingText(reasons: ComparabilityReason[]): string {
  return reasons
    .filter((r) => r.severity === "blocking" && !r.accepted)
    .map((r) => `${r.label} ${r.a} vs ${r.b}`)
    .join("; ");
}
