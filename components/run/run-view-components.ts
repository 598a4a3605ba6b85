import type { ComponentType } from "react";
import type { RunSummary } from "@/lib/api/schemas";
import { BreakdownView } from "@/components/run-views/breakdown-view";
import { CacheView } from "@/components/run-views/cache-view";
import { EndpointsView } from "@/components/run-views/endpoints-view";
import { FilesView } from "@/components/run-views/files-view";
import { GpuView } from "@/components/run-views/gpu-view";
import { KvView } from "@/components/run-views/kv-view";
import { LatencyView } from "@/components/run-views/latency-view";
import { ThroughputView } from "@/components/aiperf/throughput-view";
import { OffloadView } from "@/components/run-views/offload-view";
import { OverviewView } from "@/components/run-views/overview-view";

export interface RunViewProps {
  run: RunSummary;
}

export interface RunViewDef {
  /** The `?view=` value */
  id: string;
  label: string;
  /** Whether the run has data for this view; views without data are greyed out in the tabs. */
  hasData(run: RunSummary): boolean;
  Component: ComponentType<RunViewProps>;
}

/** The run page's views, in tab order (design.md §7). */
export const RUN_VIEWS: RunViewDef[] = [
  { id: "overview", label: "Overview", hasData: () => true, Component: OverviewView },
  { id: "latency", label: "Latency", hasData: (r) => r.requests !== null, Component: LatencyView },
  {
    id: "throughput",
    label: "Throughput",
    hasData: (r) => r.requests?.source === "aiperf",
    Component: ThroughputView,
  },
  { id: "breakdown", label: "Breakdown", hasData: (r) => r.timeBreakdown !== null, Component: BreakdownView },
  {
    id: "cache",
    label: "Cache",
    hasData: (r) =>
      r.serverMetrics !== null ||
      r.timeBreakdown?.kvCacheHitRate != null ||
      typeof r.info.theoreticalCacheHitRate === "number",
    Component: CacheView,
  },
  { id: "kv", label: "KV", hasData: (r) => r.serverMetrics !== null, Component: KvView },
  {
    id: "offload",
    label: "Offload",
    hasData: (r) => r.serverMetrics !== null || r.timeBreakdown?.kvTransfer != null,
    Component: OffloadView,
  },
  {
    id: "gpu",
    label: "GPU",
    hasData: (r) => r.files.some((f) => f.kind === "aiperf-gpu-telemetry"),
    Component: GpuView,
  },
  { id: "endpoints", label: "Endpoints", hasData: (r) => r.endpoints.length > 0, Component: EndpointsView },
  { id: "files", label: "Files", hasData: () => true, Component: FilesView },
];

export const DEFAULT_VIEW = "overview";
