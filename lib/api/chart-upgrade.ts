/**
 * How a chart payload stored at an older version of its chart reaches the current shape
 * (docs/architecture.md §Stored payloads evolve): each chart's `upgrade` (lib/api/chart-catalog.ts)
 * fills what the old payload gives, or says why it cannot, and the run is then recomputed from its
 * raw files. A leaf beside the payload schemas, which declare their own upgrades.
 */

/** An older payload in the current shape, or why it cannot be: what it lacks and nothing in it gives. */
export type UpgradeResult = { payload: unknown } | { recompute: string };

/** From a payload stored at `storedVersion` (below the chart's) to the current shape. */
export type ChartUpgrade = (stored: Record<string, unknown>, storedVersion: number) => UpgradeResult;

/** The code a chart read answers when its stored payload must be recomputed (409). */
export const RECOMPUTE_NEEDED = "recompute_needed";

/**
 * The code the chart route answers (404) for a payload stored for a server-side reader only
 * (`served: false` in the chart catalog), never served whole.
 */
export const CHART_NOT_SERVED = "chart_not_served";
