"use client";

import type { z } from "zod";
import { useRunChart } from "@/components/charts/use-run-chart";

/** One aiperf chart payload of a run (computed at ingest, cached for good). */
export function useAiperfChart<S extends z.ZodType>(runId: string, key: string, schema: S, enabled = true) {
  return useRunChart(runId, key, schema, enabled);
}
