"use client";

import { useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { runChartQueryOptions } from "@/lib/api/query-options";

/** One TensorRT-LLM chart payload of a run (computed at ingest, cached for good). */
export function useTrtllmChart<S extends z.ZodType>(runId: string, key: string, schema: S, enabled = true) {
  return useQuery({ ...runChartQueryOptions(runId, key, schema), enabled, retry: false });
}
