/**
 * Per-endpoint and per-role hit rates of several runs, side by side. Role rates are
 * token-weighted (Σcached / Σprompt, docs/metrics.md §Cache hit rate) — averaging endpoint rates would let a
 * nearly idle endpoint count as much as a busy one.
 */
import { compareEndpointNames } from "@/lib/api/endpoint-order";
import type { EndpointRole, RunSummary } from "@/lib/api/schemas";

export interface HitRateRow {
  /** endpoint or role */
  key: string;
  role: EndpointRole;
  /** runId → hit rate (0..1) or null when the run has no value */
  values: Record<string, number | null>;
}

const ROLE_ORDER: EndpointRole[] = ["prefill", "combined", "decode", "frontend", "router"];

/** An endpoint's rate from server-metrics counters, else from TRT-LLM perf metrics. */
function endpointRate(e: RunSummary["endpoints"][number]): number | null {
  return e.cacheHitRate ?? e.kvCacheHitRate;
}

/** Whether a run serves disaggregated: its decode endpoints' rates are then n/a. */
const disaggregated = (run: RunSummary) => run.endpoints.some((e) => e.role === "prefill");

export function endpointHitRates(runs: RunSummary[]): HitRateRow[] {
  const rows = new Map<string, HitRateRow>();
  const roles = new Map<string, Set<EndpointRole>>();
  for (const run of runs)
    for (const e of run.endpoints) roles.set(e.endpoint, (roles.get(e.endpoint) ?? new Set()).add(e.role));
  for (const run of runs) {
    // Beside prefill endpoints a decode endpoint's rate is n/a, as on the run's Cache view: the KV
    // it receives from prefill is not a cache hit (a 0 % bar would read as a cold cache, a
    // generation worker's block reuse as a prefill hit rate).
    const disagg = disaggregated(run);
    for (const e of run.endpoints) {
      if (disagg && e.role === "decode") continue;
      const rate = endpointRate(e);
      if (rate === null) continue;
      // A group is one endpoint in one role: an address that is prefill in one run and decode in
      // another is two groups, so a prefill bar never stands beside a decode bar.
      const id = `${e.role}|${e.endpoint}`;
      const key = (roles.get(e.endpoint)?.size ?? 1) > 1 ? `${e.endpoint} (${e.role})` : e.endpoint;
      const row = rows.get(id) ?? { key, role: e.role, values: {} };
      row.values[run.id] = rate;
      rows.set(id, row);
    }
  }
  for (const row of rows.values()) for (const run of runs) row.values[run.id] ??= null;
  // Prefill first, as the role rows and the bar charts; natural order within a role.
  return [...rows.values()].sort(
    (a, b) => ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role) || compareEndpointNames(a.key, b.key),
  );
}

/** Token-weighted hit rate per role; falls back to request-weighted perf-metrics rates when no tokens are known. */
export function roleHitRates(runs: RunSummary[]): HitRateRow[] {
  const rows: HitRateRow[] = [];
  for (const role of ROLE_ORDER) {
    const values: Record<string, number | null> = {};
    let any = false;
    for (const run of runs) {
      // A disaggregated run's decode role has no hit rate (see endpointHitRates).
      const eps = role === "decode" && disaggregated(run) ? [] : run.endpoints.filter((e) => e.role === role);
      let cached = 0;
      let prompt = 0;
      for (const e of eps)
        if (e.cachedTokens !== null && e.promptTokens !== null) {
          cached += e.cachedTokens;
          prompt += e.promptTokens;
        }
      let rate: number | null = prompt > 0 ? cached / prompt : null;
      if (rate === null) {
        let weight = 0;
        let sum = 0;
        for (const e of eps)
          if (e.kvCacheHitRate !== null) {
            const w = e.requestCount ?? 1;
            weight += w;
            sum += e.kvCacheHitRate * w;
          }
        rate = weight > 0 ? sum / weight : null;
      }
      values[run.id] = rate;
      if (rate !== null) any = true;
    }
    if (any) rows.push({ key: role, role, values });
  }
  return rows;
}
