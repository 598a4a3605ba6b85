"use client";

import type { RunViewProps } from "@/components/run/run-views";
import { EmptyView } from "./empty-view";

export function GpuView({ run }: RunViewProps) {
  void run;
  return <EmptyView title="No GPU telemetry in this run">Upload aiperf gpu_telemetry_export.jsonl to see power, utilisation and memory per GPU.</EmptyView>;
}
