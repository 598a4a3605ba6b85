/**
 * Real aiperf outputs of every version (0.1.1 to 0.8.0, and a pre-versioning PyPI summary with
 * DCGM telemetry), uploaded through POST /api/runs as a dragged folder sends them and read back
 * through GET /api/runs/{id} and the chart payloads. Every number is compared with aiperf's own,
 * parsed here from the files aiperf wrote beside the records (its summary JSON, its log, the
 * records themselves), never with an earlier Runlens output. The folders are other people's files,
 * read in place from ../shared/fixtures/real-public (test/helpers/real-public.ts).
 *
 * aiperf's definitions (ai-dynamo/aiperf): request_count counts successful requests; errors
 * (error_request_count) and warm-up are counted apart; benchmark_duration = max_response_timestamp
 * − min_request_timestamp; request_throughput = request_count / benchmark_duration. aiperf 0.1.x
 * tags: `ttft`, `ttst` (renamed in 43b78902), one `timestamp_ns` per record, end = start +
 * request_latency (v0.1.1 aiperf/metrics/types/max_response_metric.py).
 */
import fs from "node:fs";
import { expect, it } from "vitest";

import {
  agreementPayloadSchema,
  distributionPayloadSchema,
  gpuSummaryPayloadSchema,
  overTimePayloadSchema,
  timelinePayloadSchema,
  ttftVsInputPayloadSchema,
} from "@/lib/api/aiperf-charts";
import { type Stats } from "@/lib/api/schemas";
import { SUMMARY_STATS } from "@/lib/metrics/aiperf-agreement";
import { describeRealPublic, realPublicFile, realPublicJson, realPublicParts } from "../helpers/real-public";
import { freshAppEachTest, uploadRun } from "../helpers/test-app";
import { readChart, readRun } from "../helpers/read-api";

freshAppEachTest();

type Block = { unit?: string; avg?: number } & Partial<Record<string, number>>;
type Summary = Record<string, Block> & {
  input_config: {
    endpoint: { model_names: string[] };
    loadgen: { concurrency?: number; warmup_request_count?: number };
  };
  error_summary: Array<{ error_details: { code: number; type: string }; count: number }>;
  telemetry_data?: {
    endpoints: Record<
      string,
      {
        gpus: Record<
          string,
          { gpu_uuid: string; metrics: Record<string, { avg?: number; min?: number; max?: number }> }
        >;
      }
    >;
  };
};

/** Equal to aiperf's full-precision float, up to float noise (the review's 1e-6 relative rule). */
function same(ours: number | null | undefined, theirs: number | undefined, what: string) {
  expect(theirs, `${what}: aiperf wrote it`).toBeTypeOf("number");
  expect(ours, what).toBeTypeOf("number");
  expect(Math.abs(ours! - theirs!), `${what}: ${ours} vs aiperf ${theirs}`).toBeLessThanOrEqual(
    1e-6 * Math.max(1, Math.abs(theirs!)),
  );
}

/** aiperf's statistics of a metric but its count, by our name and aiperf's. */
const STATS: Array<[keyof Stats, string]> = SUMMARY_STATS.filter(([o]) => o !== "count");

/** Every statistic aiperf wrote for the metric (ms blocks are ms in both). */
function sameStats(ours: Stats | null | undefined, block: Block | undefined, what: string) {
  expect(block, `${what}: in aiperf's summary`).toBeDefined();
  expect(ours, `${what}: shown`).toBeTruthy();
  for (const [o, a] of STATS) if (block![a] !== undefined) same(ours![o], block![a], `${what} ${o}`);
}

/** The request statistics a run's requests block must carry, by aiperf's tag. */
function sameRequestStats(r: NonNullable<Awaited<ReturnType<typeof readRun>>["requests"]>, s: Summary) {
  sameStats(r.ttftMs, s.time_to_first_token ?? s.ttft, "TTFT");
  sameStats(r.e2eMs, s.request_latency, "request latency");
  sameStats(r.itlMs, s.inter_token_latency, "inter-token latency");
  sameStats(r.inputTokens, s.input_sequence_length, "ISL");
  sameStats(r.outputTokens, s.output_sequence_length, "OSL");
}

/** aiperf's count, duration and rates: successful requests, its errors apart, its window. */
function sameCountsAndRates(run: Awaited<ReturnType<typeof readRun>>, s: Summary) {
  const r = run.requests!;
  same(r.count - r.errorCount, s.request_count.avg, "successful requests (request_count)");
  same(r.errorCount, s.error_request_count?.avg ?? 0, "errors (error_request_count)");
  same(r.durationS, s.benchmark_duration.avg, "benchmark_duration (s)");
  same(r.requestThroughputPerS, s.request_throughput.avg, "request_throughput");
  same(r.outputTokenThroughputPerS, s.output_token_throughput.avg, "output_token_throughput");
  same(run.throughput!.requestsPerS, s.request_throughput.avg, "run requests/s");
  same(run.throughput!.outputTokPerS, s.output_token_throughput.avg, "run output tok/s");
  // aiperf's total_token_throughput, or (total_isl + total_osl) / benchmark_duration where it wrote none.
  const total =
    s.total_token_throughput?.avg ?? (s.total_isl.avg! + s.total_osl.avg!) / s.benchmark_duration.avg!;
  same(run.throughput!.totalTokPerS, total, "total tok/s");
}

describeRealPublic("aiperf-0.1.1-gptoss20b-cancellations", () => {
  const folder = "aiperf-0.1.1-gptoss20b-cancellations";
  it("reads 0.1.1's short tags, timestamp_ns, 499 cancellations and its records-map summary, as aiperf counted them", async () => {
    const doc = realPublicJson<{ records: Summary } & Summary>(folder, "profile_export_aiperf.json");
    const s = { ...doc, ...doc.records } as Summary;
    const id = await uploadRun(realPublicParts(folder));
    const run = await readRun(id);
    expect(run.files.find((f) => f.name === "profile_export_aiperf.json")).toMatchObject({
      kind: "aiperf-summary",
      format: "json",
    });
    const r = run.requests!;
    expect(r.source).toBe("aiperf");
    sameRequestStats(r, s);
    sameCountsAndRates(run, s);
    // aiperf's own figures for this run (PROVENANCE.md): TTFT mean 2,343.22 ms, p99 3,833.39 ms,
    // duration 9.318 s, 9.5516 req/s, 2,320.72 output tok/s, 7,574.11 total tok/s.
    expect(r.ttftMs!.mean).toBeCloseTo(2343.22, 2);
    expect(run.throughput!.totalTokPerS).toBeCloseTo(7574.11, 2);
    // 0.1.1 writes no was_cancelled: its 11 cancellations are error 499 RequestCancellationError.
    const cancelled = s.error_summary
      .filter((e) => e.error_details.type === "RequestCancellationError")
      .reduce((a, e) => a + e.count, 0);
    expect(cancelled).toBe(11);
    expect(r.cancelledCount).toBe(cancelled);
    expect(run.facts.model?.value).toBe(s.input_config.endpoint.model_names[0]);
    expect(run.facts.concurrency?.value).toBe(s.input_config.loadgen.concurrency);
    // The records and the summary describe the same requests: no warning blames the files.
    expect(run.warnings.filter((w) => /disagrees|not recognised/.test(w))).toEqual([]);
    const agreement = agreementPayloadSchema.parse(await readChart(id, "aiperf-agreement"));
    expect(agreement.disagreements).toBe(0);
    expect(agreement.rows.some((row) => row.metric === "Request throughput (requests/s)")).toBe(true);
  });
});

describeRealPublic("aiperf-0.2-inputs-json-canary", () => {
  it("reads every session of the inputs.json", async () => {
    const folder = "aiperf-0.2-inputs-json-canary";
    const doc = realPublicJson<{ data: unknown[] }>(folder, "inputs.json");
    const run = await readRun(await uploadRun(realPublicParts(folder)));
    expect(run.files[0]).toMatchObject({ kind: "aiperf-inputs", records: doc.data.length, skipped: 0 });
  });
});

describeRealPublic("aiperf-0.3-qwen3-0.6b-plot-fixtures", () => {
  const folder = "aiperf-0.3-qwen3-0.6b-plot-fixtures";
  for (const sub of ["qwen_concurrency1", "qwen_concurrency2", "qwen_concurrency4"]) {
    it(`${sub}: aiperf's summary of every request is the run's figure; the charts say they are a sample`, async () => {
      const s = realPublicJson<Summary>(folder, `${sub}/profile_export_aiperf.json`);
      const records = fs
        .readFileSync(realPublicFile(folder, `${sub}/profile_export.jsonl`), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as { metadata: { benchmark_phase?: string } });
      const profiling = records.filter((x) => x.metadata.benchmark_phase !== "warmup").length;
      const described = s.request_count.avg! + (s.error_request_count?.avg ?? 0);
      expect(profiling).toBeLessThan(described);

      const id = await uploadRun(realPublicParts(folder, sub));
      const run = await readRun(id);
      const r = run.requests!;
      expect(r.recordsSample).toEqual({ records: profiling, described });
      sameRequestStats(r, s);
      sameCountsAndRates(run, s);
      expect(run.info.concurrency).toBe(s.input_config.loadgen.concurrency);
      expect(r.warmupCount).toBe(s.input_config.loadgen.warmup_request_count);
      const sample = { records: profiling, described };
      expect(distributionPayloadSchema.parse(await readChart(id, "aiperf-distribution")).sample).toEqual(
        sample,
      );
      expect(overTimePayloadSchema.parse(await readChart(id, "aiperf-over-time")).sample).toEqual(sample);
      expect(ttftVsInputPayloadSchema.parse(await readChart(id, "aiperf-ttft-vs-input")).sample).toEqual(
        sample,
      );
      expect(timelinePayloadSchema.parse(await readChart(id, "aiperf-timeline")).sample).toEqual(sample);
      // Two exporters scrape one GPU (one uuid), and it did work: 1 GPU.
      expect(run.facts.gpuCount?.value).toBe(1);
    });
  }
});

describeRealPublic("aiperf-0.8.0-sglang-glm5.1-agentic-conc16", () => {
  const folder = "aiperf-0.8.0-sglang-glm5.1-agentic-conc16";
  it("every summary statistic, the log's warm-up, the records' max turn, and aiperf's window", async () => {
    const s = realPublicJson<Summary>(folder, "profile_export_aiperf.json");
    const log = fs.readFileSync(realPublicFile(folder, "aiperf.log"), "utf8");
    const warm = /Phase warmup complete \| completed=(\d+), cancelled=\d+, errors=(\d+)/.exec(log)!;
    const profiling = /Phase profiling complete \| completed=\d+, cancelled=(\d+)/.exec(log)!;
    let maxTurn = -1;
    for (const line of fs.readFileSync(realPublicFile(folder, "profile_export.jsonl"), "utf8").split("\n"))
      if (line.trim())
        maxTurn = Math.max(
          maxTurn,
          (JSON.parse(line) as { metadata: { turn_index: number } }).metadata.turn_index,
        );

    const id = await uploadRun(realPublicParts(folder));
    const run = await readRun(id);
    const r = run.requests!;
    sameRequestStats(r, s);
    sameCountsAndRates(run, s);
    expect(r.warmupCount).toBe(Number(warm[1]));
    expect(r).toMatchObject({ warmupSource: "log", warmupErrorCount: Number(warm[2]) });
    expect(run.info.maxTurnIndex).toBe(maxTurn);
    // aiperf cancelled the requests still in flight when its duration ran out: no records, counted apart.
    expect(run.info.profilingCancelledInLog).toBe(Number(profiling[1]));
    expect(maxTurn).toBe(312);
    const kinds = Object.fromEntries(run.files.map((f) => [f.name, f.kind]));
    expect(kinds).toMatchObject({
      "aiperf.log": "aiperf-log",
      "benchmark_command.txt": "aiperf-log",
      "workload_distribution_summary.txt": "aiperf-log",
    });
    const agreement = agreementPayloadSchema.parse(await readChart(id, "aiperf-agreement"));
    expect(agreement.disagreements).toBe(0);
  });
});

describeRealPublic("aiperf-summary-gptoss20b-k8s-dcgm", () => {
  const folder = "aiperf-summary-gptoss20b-k8s-dcgm";
  it("counts the GPUs that served (telemetry with work), and every summary figure", async () => {
    const s = realPublicJson<Summary>(folder, "profile_export_aiperf.json");
    const gpus = Object.values(s.telemetry_data!.endpoints).flatMap((e) => Object.values(e.gpus));
    const worked = (g: (typeof gpus)[number]) =>
      ["gpu_utilization", "gpu_memory_used"].some((m) => (g.metrics[m]?.max ?? g.metrics[m]?.avg ?? 0) > 0);
    const busy = gpus.filter(worked).length;
    expect([busy, gpus.length]).toEqual([1, 8]);

    const id = await uploadRun(realPublicParts(folder));
    const run = await readRun(id);
    const r = run.requests!;
    expect(r.source).toBe("aiperf-summary");
    // aiperf's telemetry_data is shown: power, utilisation, memory, and energy (counter max − min, MJ).
    const table = gpuSummaryPayloadSchema.parse(await readChart(id, "aiperf-gpu-summary")).gpus;
    expect(table).toHaveLength(gpus.length);
    expect(table.filter((g) => g.busy).length).toBe(busy);
    gpus.forEach((g, i) => {
      const m = g.metrics as Record<string, { avg?: number; min?: number; max?: number }>;
      same(table[i].powerAvgW, m.gpu_power_usage.avg, `GPU ${i} power avg`);
      same(table[i].utilizationMaxPct, m.gpu_utilization.max, `GPU ${i} utilisation max`);
      same(
        table[i].energyJ,
        (m.energy_consumption.max! - m.energy_consumption.min!) * 1e6,
        `GPU ${i} energy`,
      );
    });
    sameRequestStats(r, s);
    sameCountsAndRates(run, s);
    expect(r.warmupCount).toBe(s.input_config.loadgen.warmup_request_count);
    expect(run.facts.gpuCount?.value).toBe(busy);
    expect(run.facts.gpuCount?.source).toContain(`${busy} of ${gpus.length} GPUs busy`);
    same(
      run.derived.outputTokPerSPerGpu.value,
      s.output_token_throughput.avg! / busy,
      "output tok/s per GPU",
    );
    same(run.derived.requestsPerSPerGpu.value, s.request_throughput.avg! / busy, "requests/s per GPU");
  });
});
