"use client";

import type { RunViewProps } from "@/components/run/run-views";
import { EmptyView } from "./empty-view";

export function EndpointsView({ run }: RunViewProps) {
  void run;
  return <EmptyView title="No endpoints in this run">Endpoints appear when server metrics or TRT-LLM perf metrics are uploaded.</EmptyView>;
}
