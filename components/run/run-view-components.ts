import type { ComponentType } from "react";
import dynamic from "next/dynamic";
import type { RunViewId } from "@/lib/api/run-views";
import type { RunViewProps } from "./run-view-props";

type ViewLoader = () => Promise<ComponentType<RunViewProps>>;

/** How each view's code is loaded: one chunk per view (and the chart kit it draws with). */
const LOADERS: Record<RunViewId, ViewLoader> = {
  overview: () => import("@/components/run-views/overview-view").then((m) => m.OverviewView),
  latency: () => import("@/components/run-views/latency-view").then((m) => m.LatencyView),
  throughput: () => import("@/components/aiperf/throughput-view").then((m) => m.ThroughputView),
  turns: () => import("@/components/run-views/turns-view").then((m) => m.TurnsView),
  breakdown: () => import("@/components/run-views/breakdown-view").then((m) => m.BreakdownView),
  timeline: () => import("@/components/run-views/timeline-view").then((m) => m.TimelineView),
  cache: () => import("@/components/run-views/cache-view").then((m) => m.CacheView),
  kv: () => import("@/components/run-views/kv-view").then((m) => m.KvView),
  offload: () => import("@/components/run-views/offload-view").then((m) => m.OffloadView),
  gpu: () => import("@/components/run-views/gpu-view").then((m) => m.GpuView),
  endpoints: () => import("@/components/run-views/endpoints-view").then((m) => m.EndpointsView),
  files: () => import("@/components/run-views/files-view").then((m) => m.FilesView),
};

/**
 * The component of each view in the manifest (`@/lib/api/run-views`), which holds the rest. Each
 * view is its own chunk: the server page renders the view opened (app/runs/[id]/first-view.ts),
 * and the page loads another view's code when it is about to be opened (`preloadRunView`) or is.
 */
export const RUN_VIEW_COMPONENTS = Object.fromEntries(
  Object.entries(LOADERS).map(([id, load]) => [id, dynamic(load)]),
) as Record<RunViewId, ComponentType<RunViewProps>>;

const preloaded = new Set<RunViewId>();

/**
 * Starts loading a view's code ahead of its tab being opened (hovered, focused, or a neighbour of
 * the open tab once the page is idle), so the switch waits for no download. Once per view.
 */
export function preloadRunView(id: RunViewId): void {
  if (preloaded.has(id)) return;
  preloaded.add(id);
  LOADERS[id]().catch(() => preloaded.delete(id));
}
