"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useMemo, type ReactNode } from "react";
import { decodeTimeline, type TimelineWire } from "@/lib/api/timeline";
import { timelineQueryOptions, type TimelineSeedData } from "@/lib/api/timeline-query-options";

/**
 * Puts the window the server render sent with the page into the query cache before the
 * Timeline view asks for it (docs/metrics.md §Request timeline, "First window"). It comes as
 * the route's JSON text of its wire form, one string in the page, parsed and decoded here once; a window already in the
 * cache (a later navigation back) is kept.
 */
export function TimelineSeed({ seed, children }: { seed: TimelineSeedData | null; children: ReactNode }) {
  const client = useQueryClient();
  useMemo(() => {
    if (!seed) return;
    const { queryKey } = timelineQueryOptions(seed.runId, seed.window);
    if (client.getQueryData(queryKey) === undefined)
      client.setQueryData(queryKey, decodeTimeline(JSON.parse(seed.json) as TimelineWire));
  }, [client, seed]);
  return children;
}
