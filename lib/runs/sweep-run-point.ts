/**
 * One run as a sweep member: its facts, and its point at every statistic, computed from every
 * recorded request or from the producer's own summary, as lib/metrics/records-or-summary.ts
 * chooses for the run's derived throughput too (docs/metrics.md §Records or summary).
 */
import { summaryBlocksSchema, type SummaryBlocks } from "@/lib/api/schemas";
import { SWEEP_STATS, type SweepRun } from "@/lib/api/sweeps";
import { parseSummaryJson, type AiperfSummary } from "@/lib/formats/aiperf-summary";
import { readWholeText } from "@/lib/formats/aiperf-read";
import type { BenchResult } from "@/lib/formats/bench-result";
import { BENCH_RESULT_KINDS, benchResultOfText } from "@/lib/formats/bench-results";
import { genaiPerfResults } from "@/lib/formats/genai-perf";
import { filePart } from "@/lib/store/file-part";
import type { IngestDeps } from "@/lib/ingest/deps";
import {
  pointInputsFromAiperfSummary,
  pointInputsFromRecords,
  pointInputsFromToolSummary,
  sweepPoint,
  type PointInputs,
  type StatSet,
} from "@/lib/metrics/sweep-point";
import { recordsOrSummary } from "@/lib/metrics/records-or-summary";
import { getFiles, getRun, type FileRow } from "@/lib/store/runs-repo";
import { storedSummary } from "./stored-summary";
import { aiperfMeasuredRows } from "@/lib/store/sweep-point-rows";
import type { RunFacts } from "@/lib/api/run-facts";
import { EMPTY_FACTS } from "@/lib/api/run-facts";
import { readRunFacts } from "./run-facts";

/** Parsed summaries by blob hash: a blob never changes, and a sweep page asks for the same ones often. */
const summaryCache = new Map<string, AiperfSummary | null>();

async function readAiperfSummary(
  app: Pick<IngestDeps, "blobs">,
  sha256: string,
): Promise<AiperfSummary | null> {
  if (summaryCache.has(sha256)) return summaryCache.get(sha256)!;
  const chunks: Buffer[] = [];
  for await (const c of await app.blobs.open(sha256)) chunks.push(c as Buffer);
  let parsed: AiperfSummary | null = null;
  try {
    parsed = parseSummaryJson(JSON.parse(Buffer.concat(chunks).toString("utf8")));
  } catch {
    parsed = null;
  }
  if (summaryCache.size > 256) summaryCache.delete(summaryCache.keys().next().value!);
  summaryCache.set(sha256, parsed);
  return parsed;
}

/** Tool results by blob hash and part: a blob never changes. */
const toolCache = new Map<string, BenchResult | null>();

/**
 * The imported tool's own result for this run (vLLM bench serve, SGLang bench_serving, GuideLLM,
 * a genai-perf summary), read again from its file: the benchmark the run holds.
 */
async function readToolResult(app: IngestDeps, files: FileRow[]): Promise<BenchResult | null> {
  for (const f of files) {
    const genai = f.kind === "genai-perf-summary";
    if (!genai && !BENCH_RESULT_KINDS.has(f.kind)) continue;
    const part = filePart(f);
    const key = `${f.sha256}#${part ?? ""}`;
    if (!toolCache.has(key)) {
      let result: BenchResult | null = null;
      try {
        // Read whole as the importer reads it, within the same document limit.
        const text = await readWholeText(await app.blobs.open(f.sha256), app.config.maxJsonDocumentBytes);
        if (text === null) result = null;
        else if (genai) {
          const doc: unknown = JSON.parse(text);
          result =
            typeof doc === "object" && doc !== null
              ? (genaiPerfResults(null, doc as Record<string, unknown>)[0] ?? null)
              : null;
        } else result = benchResultOfText(f.kind, f.format, text, part);
      } catch {
        result = null;
      }
      if (toolCache.size > 256) toolCache.delete(toolCache.keys().next().value!);
      toolCache.set(key, result);
    }
    const hit = toolCache.get(key);
    if (hit) return hit;
  }
  return null;
}

interface Sourced {
  inputs: PointInputs | null;
  source: SweepRun["source"];
  sourceNote: string | null;
  /** Whose summary (an imported tool's), where it is not aiperf's */
  sourceProducer?: string;
}

/** TensorRT-LLM perf metrics: latency statistics (no throughput window, no per-request TPOT list here). */
function fromTrtllm(blocks: SummaryBlocks): Sourced | null {
  const lat = blocks.timeBreakdown?.latency;
  if (!lat) return null;
  // p90 is optional in the stats schema (a tool's run-level figures may lack it); ours always have it.
  const set = (s: { mean: number; p50: number; p90?: number; p99: number } | null): StatSet | null =>
    s && s.p90 !== undefined ? { mean: s.mean, p50: s.p50, p90: s.p90, p99: s.p99 } : null;
  return {
    inputs: {
      outputTokPerS: blocks.requests?.outputTokenThroughputPerS ?? null,
      totalTokPerS: null,
      requestsPerS: blocks.requests?.requestThroughputPerS ?? null,
      ttftMs: set(lat.ttftMs),
      e2eMs: set(lat.e2eMs),
      tpotMs: set(lat.tpotMs),
      tokPerSPerUser: set(lat.tokPerUser),
    },
    source: "records",
    sourceNote: null,
  };
}

async function pointSource(app: IngestDeps, runId: string, blocks: SummaryBlocks): Promise<Sourced> {
  const files = await getFiles(app.store.db, runId);
  const summaries = files.filter((f) => f.kind === "aiperf-summary" && f.format === "json");
  const summary = summaries.length === 1 ? await readAiperfSummary(app, summaries[0].sha256) : null;
  const req = blocks.requests;
  // A sampled run's requests block is already the summary's; its records' own count decides.
  const recorded =
    req && req.source === "aiperf"
      ? req.recordsSample
        ? Math.min(req.recordsSample.records, (summary?.metrics.request_count?.avg ?? Infinity) - 1)
        : req.count - req.errorCount
      : null;
  const choice = recordsOrSummary(recorded, summary?.metrics.request_count?.avg, summary !== null);
  if (choice?.from === "summary" && summary)
    return { inputs: pointInputsFromAiperfSummary(summary), source: "summary", sourceNote: choice.note };
  if (choice?.from === "records" && req) {
    const rows = await aiperfMeasuredRows(app.store.db, runId);
    return { inputs: pointInputsFromRecords(rows, req.durationS), source: "records", sourceNote: null };
  }
  // An imported tool's result without per-request rows: its own figures are the run's.
  if (req?.source === "tool-summary") {
    const tool = await readToolResult(app, files);
    if (tool)
      return {
        inputs: pointInputsFromToolSummary(tool.summary, tool.tool, tool.e2eValuesMs),
        source: "summary",
        sourceNote: `no per-request arrays in this run's files: these are ${tool.tool}'s own figures`,
        sourceProducer: tool.tool,
      };
  }
  return (
    fromTrtllm(blocks) ?? {
      inputs: null,
      source: "none",
      sourceNote: "no request records or summary in this run",
    }
  );
}

const EMPTY: PointInputs = {
  outputTokPerS: null,
  totalTokPerS: null,
  requestsPerS: null,
  ttftMs: null,
  e2eMs: null,
  tpotMs: null,
  tokPerSPerUser: null,
};

/**
 * The facts that make two runs at one load repeats of one sweep point when they agree. ISL and
 * OSL are not among them: where no configuration states them they are measured means, which
 * differ from run to run.
 */
const SETUP_FACTS = ["model", "backend", "backendVersion", "gpuModel", "gpuCount", "roles"] as const;

export interface SweepMember {
  run: SweepRun;
  facts: RunFacts;
}

export async function sweepMember(app: IngestDeps, runId: string): Promise<SweepMember | null> {
  const row = await getRun(app.store.db, runId);
  if (!row) return null;
  const parsed = row.summary ? summaryBlocksSchema.safeParse(storedSummary(row).blocks) : null;
  const blocks = parsed?.success ? parsed.data : null;
  const facts = (await readRunFacts(app.store, runId)) ?? EMPTY_FACTS;
  const src: Sourced = blocks
    ? await pointSource(app, runId, blocks)
    : {
        inputs: null,
        source: "none",
        sourceNote: row.status === "failed" ? "the run failed to ingest" : "the run is still ingesting",
      };
  const gpus = facts.gpuCount?.value ?? null;
  const points = Object.fromEntries(SWEEP_STATS.map((s) => [s, sweepPoint(src.inputs ?? EMPTY, gpus, s)]));
  return {
    facts,
    run: {
      id: row.id,
      name: row.name,
      status: row.status,
      concurrency: facts.concurrency?.value ?? null,
      requestRate: facts.requestRate?.value ?? null,
      gpuCount: facts.gpuCount,
      setup: JSON.stringify(SETUP_FACTS.map((k) => facts[k]?.value ?? null)),
      source: src.source,
      sourceNote: src.sourceNote,
      sourceProducer: src.source === "summary" ? (src.sourceProducer ?? "aiperf") : null,
      points: points as SweepRun["points"],
    },
  };
}
