import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";
import { decodeTimeline, timelineRequestSchema, timelineWireSchema, type TimelineLanes } from "./timeline";

export interface TimelineWindowParams {
  from: number | null;
  to: number | null;
  lanes: TimelineLanes | null;
}

/** A window the server render sends with the page, as the route's JSON text (lib/runs/run-timeline.ts). */
export interface TimelineSeedData {
  runId: string;
  window: TimelineWindowParams;
  json: string;
}

/** One window of the timeline; a ready run's requests never change, so a window is fetched once. */
export function timelineQueryOptions(runId: string, w: TimelineWindowParams) {
  const qs = new URLSearchParams();
  if (w.from !== null) qs.set("from", String(w.from));
  if (w.to !== null) qs.set("to", String(w.to));
  if (w.lanes !== null) qs.set("lanes", w.lanes);
  return queryOptions({
    queryKey: queryKeys.timeline(runId, w),
    queryFn: async () =>
      decodeTimeline(
        await fetchJson(`/api/runs/${encodeURIComponent(runId)}/timeline?${qs}`, timelineWireSchema),
      ),
    staleTime: Infinity,
  });
}

export function timelineRequestQueryOptions(runId: string, rid: number) {
  return queryOptions({
    queryKey: queryKeys.timelineRequest(runId, rid),
    queryFn: () =>
      fetchJson(`/api/runs/${encodeURIComponent(runId)}/timeline/requests/${rid}`, timelineRequestSchema),
    staleTime: Infinity,
  });
}
