"use client";

import type { RunViewProps } from "@/components/run/run-views";
import { EmptyView } from "./empty-view";

export function BreakdownView({ run }: RunViewProps) {
  void run;
  return <EmptyView title="No time breakdown in this run">Upload TensorRT-LLM perf_metrics JSONL files (worker and disagg-server files) to see where each request's time goes.</EmptyView>;
}
