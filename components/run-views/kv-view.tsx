"use client";

import type { RunViewProps } from "@/components/run/run-views";
import { EmptyView } from "./empty-view";

export function KvView({ run }: RunViewProps) {
  void run;
  return <EmptyView title="No KV-cache metrics in this run">Upload server metrics or server logs to see KV capacity and usage per endpoint.</EmptyView>;
}
