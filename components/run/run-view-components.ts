import type { ComponentType } from "react";
import dynamic from "next/dynamic";
import type { RunViewId } from "@/lib/api/run-views";
import type { RunViewProps } from "./run-view-props";

/**
 * The component of each view in the manifest (`@/lib/api/run-views`), which holds the rest. Each
 * view is its own chunk: the server renders the view asked for, and the page loads only that
 * view's code (and its chart kit) until another tab is opened.
 */
export const RUN_VIEW_COMPONENTS: Record<RunViewId, ComponentType<RunViewProps>> = {
  overview: dynamic(() => import("@/components/run-views/overview-view").then((m) => m.OverviewView)),
  latency: dynamic(() => import("@/components/run-views/latency-view").then((m) => m.LatencyView)),
  throughput: dynamic(() => import("@/components/aiperf/throughput-view").then((m) => m.ThroughputView)),
  turns: dynamic(() => import("@/components/run-views/turns-view").then((m) => m.TurnsView)),
  breakdown: dynamic(() => import("@/components/run-views/breakdown-view").then((m) => m.BreakdownView)),
  timeline: dynamic(() => import("@/components/run-views/timeline-view").then((m) => m.TimelineView)),
  cache: dynamic(() => import("@/components/run-views/cache-view").then((m) => m.CacheView)),
  kv: dynamic(() => import("@/components/run-views/kv-view").then((m) => m.KvView)),
  offload: dynamic(() => import("@/components/run-views/offload-view").then((m) => m.OffloadView)),
  gpu: dynamic(() => import("@/components/run-views/gpu-view").then((m) => m.GpuView)),
  endpoints: dynamic(() => import("@/components/run-views/endpoints-view").then((m) => m.EndpointsView)),
  files: dynamic(() => import("@/components/run-views/files-view").then((m) => m.FilesView)),
};
