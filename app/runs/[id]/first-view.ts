import type { ComponentType } from "react";
import { ThroughputViewOfRun } from "@/components/aiperf/throughput-view";
import type { ViewOfRunProps } from "@/components/run/view-of-run";
import { BreakdownViewOfRun } from "@/components/run-views/breakdown-view";
import { CacheViewOfRun } from "@/components/run-views/cache-view";
import { EndpointsViewOfRun } from "@/components/run-views/endpoints-view";
import { FilesViewOfRun } from "@/components/run-views/files-view";
import { GpuViewOfRun } from "@/components/run-views/gpu-view";
import { KvViewOfRun } from "@/components/run-views/kv-view";
import { LatencyViewOfRun } from "@/components/run-views/latency-view";
import { OffloadViewOfRun } from "@/components/run-views/offload-view";
import { OverviewViewOfRun } from "@/components/run-views/overview-view";
import { TimelineViewOfRun } from "@/components/run-views/timeline-view";
import { TurnsViewOfRun } from "@/components/run-views/turns-view";
import type { RunViewId } from "@/lib/api/run-views";

/**
 * The view a run page opens on, rendered by the server page: on the server each of these is a
 * reference to a client module, and the page's scripts carry only the one it renders. Its code
 * then arrives with the page's first scripts, in parallel, instead of being asked for after
 * hydration (the other views load on first visit: `components/run/run-view-components.ts`).
 * Server only: imported from a client module, it would bundle every view.
 */
export const FIRST_VIEWS: Record<RunViewId, ComponentType<ViewOfRunProps>> = {
  overview: OverviewViewOfRun,
  latency: LatencyViewOfRun,
  throughput: ThroughputViewOfRun,
  turns: TurnsViewOfRun,
  breakdown: BreakdownViewOfRun,
  timeline: TimelineViewOfRun,
  cache: CacheViewOfRun,
  kv: KvViewOfRun,
  offload: OffloadViewOfRun,
  gpu: GpuViewOfRun,
  endpoints: EndpointsViewOfRun,
  files: FilesViewOfRun,
};
