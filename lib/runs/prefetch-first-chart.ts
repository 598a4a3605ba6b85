/**
 * The payload of a run view's first chart, put into the page's query cache on the server: the
 * browser then draws that chart as soon as the page has hydrated, instead of asking for its data
 * only then and waiting for the answer. Small payloads only (the view's first chart, not all).
 */
import type { QueryClient } from "@tanstack/react-query";
import { chartVersion } from "@/lib/api/chart-version";
import { drilldownBuilding } from "@/lib/api/drilldown";
import { runChartQueryOptions } from "@/lib/api/query-options";
import { runView, type RunViewId } from "@/lib/api/run-views";
import type { RunSummary } from "@/lib/api/schemas";
import type { TimelineSeedData, TimelineWindowParams } from "@/lib/api/timeline-query-options";
import type { Db } from "@/lib/store/db";
import { readRunChart } from "./column-charts";
import { timelineSeed } from "./run-timeline";

/**
 * What the server render puts in the cache for the view opened: its first chart; and on the
 * Timeline view what it sends beside the cache, the window in the URL (timelineSeed). A drill-down route (the timeline) is not read while the
 * run's drill-down is being built: its route answers 409 then (docs/http-api.md), and the view
 * shows that it is building and asks again once it is ready.
 */
export async function prefetchRunView(
  queryClient: QueryClient,
  db: Db,
  run: RunSummary,
  view: RunViewId,
  timeline: TimelineWindowParams,
  { warmUp = false } = {},
): Promise<TimelineSeedData | null> {
  await prefetchFirstChart(queryClient, db, run, view);
  if (view === "timeline" && !drilldownBuilding(run))
    return timelineSeed(db, run, timeline, { storedOnly: warmUp });
  return null;
}

export async function prefetchFirstChart(
  queryClient: QueryClient,
  db: Db,
  run: RunSummary,
  view: RunViewId,
): Promise<void> {
  const { hasData, firstChart: first } = runView(view);
  const firstChart = typeof first === "function" ? first(run) : first;
  if (run.status !== "ready" || !firstChart || !hasData(run)) return;
  // A view may have data without its first chart's payload (latency from an aiperf summary alone).
  const stored = await readRunChart(db, run.id, firstChart.key);
  // One to recompute is left to the browser's ask, whose answer says so.
  if (stored === undefined || "recompute" in stored) return;
  const parsed = firstChart.schema.safeParse(JSON.parse(stored.text));
  if (!parsed.success) return;
  const options = runChartQueryOptions(run.id, firstChart, chartVersion(run));
  queryClient.setQueryData(options.queryKey, parsed.data);
}
