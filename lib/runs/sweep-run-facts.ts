/**
 * The facts a sweep needs of each run (concurrency, request rate, GPU count, model, backend),
 * each with where it came from; null when the run's files do not say.
 */
import type { SummaryBlocks } from "@/lib/api/schemas";
import { AIPERF_CHART_KEYS, gpuPayloadSchema } from "@/lib/api/aiperf-charts";
import type { Db } from "@/lib/store/db";
import { getChartData, type RunRow } from "@/lib/store/runs-repo";

export interface Fact<T> {
  value: T;
  source: string;
}

export interface SweepRunFacts {
  concurrency: Fact<number> | null;
  requestRate: Fact<number> | null;
  gpuCount: Fact<number> | null;
  model: Fact<string> | null;
  backend: Fact<string> | null;
}

const numberFact = (v: unknown, source: string): Fact<number> | null =>
  typeof v === "number" && Number.isFinite(v) ? { value: v, source } : null;

export async function sweepRunFacts(
  db: Db,
  row: RunRow,
  blocks: SummaryBlocks | null,
): Promise<SweepRunFacts> {
  const info = blocks?.info ?? {};
  let gpuCount: Fact<number> | null = null;
  const gpu = await getChartData(db, row.id, AIPERF_CHART_KEYS.gpu);
  if (gpu) {
    const parsed = gpuPayloadSchema.safeParse(JSON.parse(gpu));
    const n = parsed.success ? parsed.data.distinctGpus : 0;
    if (n > 0) gpuCount = { value: n, source: `GPU telemetry (${n} distinct GPU${n === 1 ? "" : "s"})` };
  }
  return {
    concurrency: numberFact(info.concurrency, "aiperf input_config"),
    requestRate: numberFact(info.requestRate, "aiperf input_config"),
    gpuCount,
    model: typeof info.model === "string" ? { value: info.model, source: "aiperf input_config" } : null,
    backend: row.backend ? { value: row.backend, source: "run files" } : null,
  };
}
