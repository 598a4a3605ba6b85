"use client";

import type { RunViewProps } from "@/components/run/run-views";
import { EmptyView } from "./empty-view";

export function LatencyView({ run }: RunViewProps) {
  void run;
  return <EmptyView title="No per-request latency in this run">Upload aiperf profile_export.jsonl to see latency distributions.</EmptyView>;
}
