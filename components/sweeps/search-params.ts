import {
  parseAsArrayOf,
  parseAsBoolean,
  parseAsFloat,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs/server";
import { urlState } from "@/components/url-state";
import { SWEEP_STATS } from "@/lib/api/sweeps";

/**
 * URL state of the sweep page, shared by the server page (prefetch), the client and every link
 * that opens a sweep: the statistic, the per-GPU throughput basis, log axes (the Pareto charts' `logx`/`logy`, the goodput chart's `glogx`), the sweeps overlaid
 * (`with`), a single run marked on the charts (`run`), where the frontiers are read (`read`,
 * `at`) and the SLO of the goodput chart. It lives with the components because components may
 * not import app/.
 */
const STEP = { history: "push" } as const;

export const READ_AXES = ["interactivity", "latency"] as const;

export const sweepSearchParams = {
  stat: parseAsStringLiteral(SWEEP_STATS).withDefault("p50").withOptions(STEP),
  basis: parseAsStringLiteral(["output", "total"] as const)
    .withDefault("output")
    .withOptions(STEP),
  logx: parseAsBoolean.withDefault(false).withOptions(STEP),
  logy: parseAsBoolean.withDefault(false).withOptions(STEP),
  with: parseAsArrayOf(parseAsString, ",").withDefault([]).withOptions(STEP),
  run: parseAsString.withDefault("").withOptions(STEP),
  read: parseAsStringLiteral(READ_AXES).withDefault("interactivity").withOptions(STEP),
  at: parseAsFloat.withOptions(STEP),
  slo: parseAsString.withDefault("").withOptions(STEP),
  /** Log concurrency axis of the goodput chart (concurrencies usually double: 1, 2, 4 … 256) */
  glogx: parseAsBoolean.withDefault(false).withOptions(STEP),
};

const { cache, serialize: serializeSweep } = urlState(sweepSearchParams);

export const sweepSearchParamsCache = cache;

/** The link to a sweep; state left at its default stays out of the URL. */
export function sweepHref(id: string, state: Parameters<typeof serializeSweep>[1] = {}): string {
  return serializeSweep(`/sweeps/${encodeURIComponent(id)}`, state);
}

/** `/compare?sweeps=a,b`: the first sweep's page with the others overlaid; null without valid ids. */
export function sweepsCompareHref(raw: string | string[] | undefined): string | null {
  const ids = [raw ?? []]
    .flat()
    .flatMap((v) => v.split(","))
    .map((s) => s.trim())
    .filter((s) => /^[A-Za-z0-9_-]{8,64}$/.test(s));
  const unique = [...new Set(ids)];
  if (unique.length === 0) return null;
  return sweepHref(unique[0], { with: unique.slice(1, 8) });
}
