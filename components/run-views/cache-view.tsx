"use client";

import type { RunViewProps } from "@/components/run/run-views";
import { EmptyView } from "./empty-view";

export function CacheView({ run }: RunViewProps) {
  void run;
  return <EmptyView title="No cache metrics in this run">Upload an aiperf server_metrics_export (JSON, CSV or JSONL) or Prometheus scrapes to see per-endpoint cache hit rates.</EmptyView>;
}
