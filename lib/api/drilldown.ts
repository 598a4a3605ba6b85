/**
 * A run's drill-down readiness as the API states it (docs/http-api.md): a ready run whose
 * `drilldownReadyAt` is null has its summary and charts stored, while its request lists, request
 * timeline and slowest requests are still being built.
 */
import type { RunSummary } from "./schemas";

/** How often a page asks again while a run's drill-down is being built. */
export const DRILLDOWN_POLL_MS = 1000;

export function drilldownBuilding(
  run: Pick<RunSummary, "status" | "summaryReadyAt" | "drilldownReadyAt">,
): boolean {
  return run.status === "ready" && run.summaryReadyAt !== null && run.drilldownReadyAt === null;
}
