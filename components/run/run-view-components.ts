import type { ComponentType } from "react";
import dynamic from "next/dynamic";
import type { RunViewId } from "@/lib/api/run-views";
import type { RunViewProps } from "./run-view-props";

/**
 * The component of each view in the manifest (`@/lib/api/run-views`), which holds the rest. Each
 * view is its own chunk: the server renders the view asked for and the page's HTML preloads its
 * chunk; the page loads another view's code when it is about to be opened (`preloadRunView`) or is.
 * Each `import()` sits inside its `dynamic()` call: that is how Next finds the chunk to preload.
 */
export const RUN_VIEW_COMPONENTS: Record<RunViewId, ComponentType<RunViewProps>> = {
  overview: dynamic(() => import("@/components/run-views/overview-view").then((m) => m.OverviewView)),
  latency: dynamic(() => import("@/components/run-views/latency-view").then((m) => m.LatencyView)),
  throughput: dynamic(() => import("@/components/aiperf/throughput-view").then((m) => m.ThroughputView)),
  turns: dynamic(() => import("@/components/run-views/turns-view").then((m) => m.TurnsView)),
  sessions: dynamic(() => import("@/components/run-views/sessions-view").then((m) => m.SessionsView)),
  breakdown: dynamic(() => import("@/components/run-views/breakdown-view").then((m) => m.BreakdownView)),
  timeline: dynamic(() => import("@/components/run-views/timeline-view").then((m) => m.TimelineView)),
  cache: dynamic(() => import("@/components/run-views/cache-view").then((m) => m.CacheView)),
  kv: dynamic(() => import("@/components/run-views/kv-view").then((m) => m.KvView)),
  offload: dynamic(() => import("@/components/run-views/offload-view").then((m) => m.OffloadView)),
  gpu: dynamic(() => import("@/components/run-views/gpu-view").then((m) => m.GpuView)),
  endpoints: dynamic(() => import("@/components/run-views/endpoints-view").then((m) => m.EndpointsView)),
  files: dynamic(() => import("@/components/run-views/files-view").then((m) => m.FilesView)),
};

/** The same modules as above, loaded ahead of a tab's opening. */
const PRELOADS: Record<RunViewId, () => Promise<unknown>> = {
  overview: () => import("@/components/run-views/overview-view"),
  latency: () => import("@/components/run-views/latency-view"),
  throughput: () => import("@/components/aiperf/throughput-view"),
  turns: () => import("@/components/run-views/turns-view"),
  sessions: () => import("@/components/run-views/sessions-view"),
  breakdown: () => import("@/components/run-views/breakdown-view"),
  timeline: () => import("@/components/run-views/timeline-view"),
  cache: () => import("@/components/run-views/cache-view"),
  kv: () => import("@/components/run-views/kv-view"),
  offload: () => import("@/components/run-views/offload-view"),
  gpu: () => import("@/components/run-views/gpu-view"),
  endpoints: () => import("@/components/run-views/endpoints-view"),
  files: () => import("@/components/run-views/files-view"),
};

const preloaded = new Set<RunViewId>();

/**
 * Starts loading a view's code ahead of its tab being opened (hovered, focused, or a neighbour of
 * the open tab once the page is idle), so the switch waits for no download. Once per view.
 */
export function preloadRunView(id: RunViewId): void {
  if (preloaded.has(id)) return;
  preloaded.add(id);
  PRELOADS[id]().catch(() => preloaded.delete(id));
}
