/**
 * Run facts an aiperf run states (docs/metrics.md §Run facts): model and load from the summary's
 * `input_config`, ISL/OSL from its synthetic prompt settings or else the measured means, GPU
 * count and model from GPU telemetry (the JSONL export, else the summary's `telemetry_data`).
 */
import type { ExtractedFacts } from "@/lib/api/run-facts";
import type { RequestsBlock } from "@/lib/api/schemas";
import type { AiperfSummary } from "@/lib/formats/aiperf-summary";
import type { GpuTelemetry } from "./gpu-telemetry";

const CONFIG = "aiperf input_config";
const positive = (v: number | null | undefined): v is number => typeof v === "number" && v > 0;
const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

export function aiperfFacts(
  summary: AiperfSummary | undefined,
  requests: RequestsBlock | null,
  gpu: GpuTelemetry,
): ExtractedFacts {
  const facts: ExtractedFacts = {};
  const c = summary?.config;
  const version = c?.configVersion ? `${CONFIG} v${c.configVersion}` : CONFIG;
  if (c?.model) facts.model = { value: c.model, source: version };
  if (positive(c?.concurrency)) facts.concurrency = { value: c.concurrency, source: version };
  if (positive(c?.requestRate)) facts.requestRate = { value: c.requestRate, source: version };
  Object.assign(facts, lengths(c, requests, version));
  Object.assign(facts, gpuFacts(summary, gpu));
  return facts;
}

/** The configured synthetic mean when there is one; else the mean of what was measured. */
function lengths(
  c: AiperfSummary["config"] | undefined,
  requests: RequestsBlock | null,
  config: string,
): ExtractedFacts {
  const out: ExtractedFacts = {};
  const measured =
    requests?.source === "aiperf-summary"
      ? "aiperf summary mean"
      : `mean of ${plural(requests?.inputTokens?.count ?? 0, "profiling record")}`;
  if (c?.syntheticIsl != null)
    out.isl = { value: c.syntheticIsl, source: `${config} (synthetic prompt mean)` };
  else if (requests?.inputTokens) out.isl = { value: requests.inputTokens.mean, source: measured };
  if (c?.syntheticOsl != null)
    out.osl = { value: c.syntheticOsl, source: `${config} (synthetic output mean)` };
  else if (requests?.outputTokens)
    out.osl = {
      value: requests.outputTokens.mean,
      source:
        requests.source === "aiperf-summary"
          ? "aiperf summary mean"
          : `mean of ${plural(requests.outputTokens.count, "profiling record")}`,
    };
  return out;
}

function gpuFacts(summary: AiperfSummary | undefined, gpu: GpuTelemetry): ExtractedFacts {
  if (gpu.size > 0) {
    const { count, models } = gpu.distinctGpus();
    const out: ExtractedFacts = {
      gpuCount: { value: count, source: `GPU telemetry (${plural(count, "distinct GPU")})` },
    };
    if (models.length > 0) out.gpuModel = { value: models.join(" + "), source: "GPU telemetry" };
    return out;
  }
  const listed = summary?.telemetryGpus ?? [];
  if (listed.length === 0) return {};
  // One GPU scraped through two exporters appears under both endpoints with one uuid.
  const ids = new Set(listed.map((g) => (g.uuid ? `uuid:${g.uuid}` : `${g.endpoint}|${g.index ?? "?"}`)));
  const models = [...new Set(listed.map((g) => g.name).filter((n): n is string => n !== null))];
  const source = "aiperf summary telemetry_data";
  const out: ExtractedFacts = {
    gpuCount: { value: ids.size, source: `${source} (${plural(ids.size, "distinct GPU")})` },
  };
  if (models.length > 0) out.gpuModel = { value: models.join(" + "), source };
  return out;
}
