"use client";

import type { RunViewProps } from "@/components/run/run-views";
import { EmptyView } from "./empty-view";

export function OffloadView({ run }: RunViewProps) {
  void run;
  return <EmptyView title="No offload or KV-transfer data in this run">Upload server metrics with offload counters, or TRT-LLM perf metrics with KV-transfer times.</EmptyView>;
}
