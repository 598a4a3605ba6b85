/**
 * Run facts an aiperf run states (docs/metrics.md §Run facts): model and load from the summary's
 * `input_config`, ISL/OSL from its synthetic prompt settings or else the measured means, GPU
 * count and model from GPU telemetry (the JSONL export, else the summary's `telemetry_data`).
 */
import type { ExtractedFacts } from "@/lib/api/run-facts";
import type { RequestsBlock } from "@/lib/api/schemas";
import type { AiperfSummary, TelemetryGpu } from "@/lib/formats/aiperf-summary";
import { hadWork } from "./aiperf-gpu-summary";
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
  // A sampled run's block is aiperf's summary too (its records are a sample of it).
  const fromSummary = requests?.source === "aiperf-summary" || requests?.recordsSample !== undefined;
  const measured = fromSummary
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
      source: fromSummary
        ? "aiperf summary mean"
        : `mean of ${plural(requests.outputTokens.count, "profiling record")}`,
    };
  return out;
}

/**
 * GPUs that served (docs/metrics.md §Run facts): telemetry lists every GPU its exporter sees, a
 * whole node, of which a one-GPU server uses one. A GPU counts when its utilisation or memory used
 * was above 0 at any time of the run; the source says how many of the listed GPUs that is. With no
 * utilisation or memory figures at all, every listed GPU counts.
 */
function gpuFacts(summary: AiperfSummary | undefined, gpu: GpuTelemetry): ExtractedFacts {
  if (gpu.size > 0) {
    const { count, models, busy } = gpu.distinctGpus();
    return gpuCountFacts("GPU telemetry", count, busy, models);
  }
  const listed = summary?.telemetryGpus ?? [];
  if (listed.length === 0) return {};
  // One GPU scraped through two exporters appears under both endpoints with one uuid.
  const id = (g: TelemetryGpu) => (g.uuid ? `uuid:${g.uuid}` : `${g.endpoint}|${g.index ?? "?"}`);
  const ids = new Set(listed.map(id));
  const measured = listed.filter((g) => g.metrics.utilizationPct || g.metrics.memoryUsedGb);
  const busy = new Set(measured.filter(hadWork).map(id));
  const models = [...new Set(listed.map((g) => g.name).filter((n): n is string => n !== null))];
  return gpuCountFacts(
    "aiperf summary telemetry_data",
    ids.size,
    measured.length > 0 ? busy.size : null,
    models,
  );
}

function gpuCountFacts(
  source: string,
  listed: number,
  busy: number | null,
  models: string[],
): ExtractedFacts {
  // Every listed GPU idle is a telemetry without the server's GPUs: count them all, say so.
  const served = busy !== null && busy > 0 ? busy : listed;
  const how =
    busy === null || busy === listed
      ? plural(listed, "distinct GPU")
      : busy === 0
        ? `${plural(listed, "distinct GPU")}, none busy`
        : `${busy.toLocaleString("en-US")} of ${plural(listed, "GPU")} busy: utilisation or memory used above 0`;
  const out: ExtractedFacts = { gpuCount: { value: served, source: `${source} (${how})` } };
  if (models.length > 0) out.gpuModel = { value: models.join(" + "), source };
  return out;
}
