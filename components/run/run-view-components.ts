import type { ComponentType } from "react";
import { ThroughputView } from "@/components/aiperf/throughput-view";
import { BreakdownView } from "@/components/run-views/breakdown-view";
import { CacheView } from "@/components/run-views/cache-view";
import { EndpointsView } from "@/components/run-views/endpoints-view";
import { FilesView } from "@/components/run-views/files-view";
import { GpuView } from "@/components/run-views/gpu-view";
import { KvView } from "@/components/run-views/kv-view";
import { LatencyView } from "@/components/run-views/latency-view";
import { OffloadView } from "@/components/run-views/offload-view";
import { OverviewView } from "@/components/run-views/overview-view";
import { TimelineView } from "@/components/run-views/timeline-view";
import { TurnsView } from "@/components/run-views/turns-view";
import type { RunViewId } from "@/lib/api/run-views";
import type { RunViewProps } from "./run-view-props";

/** The component of each view in the manifest (`@/lib/api/run-views`), which holds the rest. */
export const RUN_VIEW_COMPONENTS: Record<RunViewId, ComponentType<RunViewProps>> = {
  overview: OverviewView,
  latency: LatencyView,
  throughput: ThroughputView,
  turns: TurnsView,
  breakdown: BreakdownView,
  timeline: TimelineView,
  cache: CacheView,
  kv: KvView,
  offload: OffloadView,
  gpu: GpuView,
  endpoints: EndpointsView,
  files: FilesView,
};
