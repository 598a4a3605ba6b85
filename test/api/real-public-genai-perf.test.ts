/**
 * genai-perf as genai-perf wrote it (real-public/genai-perf-tritonsdk-gptoss20b-k8s: two
 * `profile_export_genai_perf.json` of openai/gpt-oss-20b, an older genai-perf's and Triton SDK
 * 25.07's), each uploaded alone through the route and read back; the known answers are the
 * files' own figures, parsed here. Where genai-perf's config keeps its arguments:
 * genai-perf/genai_perf/config/input/config_perf_analyzer.py (`perf_analyzer.stimulus`,
 * `warmup_request_count`) and the older flat `input_config`. TTFT: genai-perf's
 * profile_data_parser/llm_profile_data_parser.py drops responses without content
 * (`_preprocess_response`) before it takes the first response's stamp.
 */
import { expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { runSummarySchema, type RunSummary } from "@/lib/api/schemas";
import { describeRealPublic, realPublicJson } from "../helpers/real-public";
import { appForTest, idParams, uploadRequest } from "../helpers/test-app";
import { genaiPerfArtifacts } from "../generators/genai-perf";

const FOLDER = "genai-perf-tritonsdk-gptoss20b-k8s";
const V1 = "profile_export_genai_perf.v1-2025-09-16.json";
const V2 = "profile_export_genai_perf.v2-2025-09-30-tritonsdk25.07.json";

type Block = { avg: number; p50?: number; p90?: number; p99?: number; max?: number };
type Doc = Record<string, Block> & {
  input_config: Record<string, unknown>;
  telemetry_stats?: Record<string, Record<string, Block>>;
};

async function uploadOne(name: string, content: string) {
  const res = await upload(uploadRequest([{ name, content }]));
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.id;
}

async function summary(id: string): Promise<RunSummary> {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

describeRealPublic(FOLDER, () => {
  it.each([V1, V2])("%s alone: genai-perf's load, warm-up and figures", async (name) => {
    await appForTest();
    const doc = realPublicJson<Doc>(FOLDER, name);
    const c = doc.input_config;
    const pa = (c.perf_analyzer ?? {}) as {
      stimulus?: { concurrency?: number };
      warmup_request_count?: number;
    };
    const concurrency = pa.stimulus?.concurrency ?? (c.concurrency as number);
    const warmup = pa.warmup_request_count ?? (c.warmup_request_count as number);
    const id = await uploadOne("profile_export_genai_perf.json", JSON.stringify(doc));
    const run = await summary(id);
    const r = run.requests!;
    expect(r.count - r.errorCount).toBe(doc.request_count.avg);
    expect(r.ttftMs!.mean).toBe(doc.time_to_first_token.avg);
    expect(r.requestThroughputPerS).toBe(doc.request_throughput.avg);
    expect(r.outputTokenThroughputPerS).toBe(doc.output_token_throughput.avg);
    expect(run.facts.concurrency).toMatchObject({ value: concurrency });
    expect(concurrency).toBe(1);
    expect(r.warmupCount).toBe(warmup);
    expect(warmup).toBe(10);
    expect(r.warmupSource).toBe("config");
    expect(run.info.genaiPerfTimeToSecondTokenMeanMs).toBe(doc.time_to_second_token.avg);
    expect(run.info.benchmarkTool).toBe("genai-perf");
  });

  it("two summaries in one upload are two runs, each with its own request count, never one dropped", async () => {
    await appForTest();
    const res = await upload(
      uploadRequest([
        { name: V1, content: JSON.stringify(realPublicJson(FOLDER, V1)) },
        { name: V2, content: JSON.stringify(realPublicJson(FOLDER, V2)) },
      ]),
    );
    const body = (await res.json()) as { id: string; runs?: Array<{ id: string }>; warnings?: string[] };
    expect(body.runs).toHaveLength(2);
    const counts = await Promise.all(body.runs!.map(async (r) => (await summary(r.id)).requests!.count));
    expect(counts.sort((a, b) => a - b)).toEqual(
      [
        realPublicJson<Doc>(FOLDER, V1).request_count.avg,
        realPublicJson<Doc>(FOLDER, V2).request_count.avg,
      ].sort((a, b) => a - b),
    );
    const first = await summary(body.runs![0].id);
    expect(first.warnings.join("\n")).toMatch(/holds 2 benchmarks .*each is its own run/);
  });

  it("the older summary's output_token_throughput_per_request is shown under its name, not as tok/s per user", async () => {
    await appForTest();
    const doc = realPublicJson<Doc>(FOLDER, V1);
    const id = await uploadOne("profile_export_genai_perf.json", JSON.stringify(doc));
    const run = await summary(id);
    expect(run.info.genaiPerfOutputTokenThroughputPerRequestMean).toBe(
      doc.output_token_throughput_per_request.avg,
    );
    expect(run.warnings.join("\n")).toMatch(
      /output_token_throughput_per_request is each request's output tokens ÷ its whole latency/,
    );
  });

  it("tok/s per user, and the GPUs that show work in telemetry_stats", async () => {
    await appForTest();
    const doc = realPublicJson<Doc>(FOLDER, V2);
    const id = await uploadOne("profile_export_genai_perf.json", JSON.stringify(doc));
    const run = await summary(id);
    const util = doc.telemetry_stats!.gpu_utilization;
    const gpus = Object.keys(util).filter((k) => k !== "unit");
    const busy = gpus.filter((g) => (util[g].max ?? 0) > 0 || util[g].avg > 0);
    expect(gpus).toHaveLength(8);
    expect(busy).toHaveLength(1);
    expect(run.facts.gpuCount).toMatchObject({ value: busy.length });
    expect(run.facts.gpuCount!.source).toMatch(/genai-perf telemetry_stats \(1 of 8 GPUs show work/);
    const derived = run.derived;
    const perUser = doc.output_token_throughput_per_user;
    expect(derived.tokPerUser.mean.value).toBe(perUser.avg); // 129.23
    // "p90"/"p99" of a higher-is-better figure is its worst tail (docs/metrics.md §Per-user
    // throughput): 1000 ÷ TPOT p90/p99, genai-perf's own p10/p1 of tok/s per user up to the
    // interpolation between requests (its p90/p99 are the fast tail, 131.32/131.55).
    const itl = (doc as unknown as { inter_token_latency: { p90: number; p99: number } }).inter_token_latency;
    expect(derived.tokPerUser.p90.value).toBe(1000 / itl.p90); // 128.70
    expect(
      Math.abs(derived.tokPerUser.p90.value! / (perUser as unknown as { p10: number }).p10 - 1),
    ).toBeLessThan(1e-6);
    expect(derived.tokPerUser.p99.value).toBe(1000 / itl.p99); // 108.19
    expect(derived.outputTokPerSPerGpu.value).toBe(doc.output_token_throughput.avg / busy.length);
  });
});

/**
 * A streamed OpenAI chat run whose first chunk of every request is role-only (no content), as
 * vLLM sends it (test/generators/genai-perf.ts `roleChunk`): genai-perf's TTFT runs to the first
 * chunk with content, and so does ours; the summary it wrote agrees.
 */
it("genai-perf TTFT runs to the first response with content, not the role-only chunk", async () => {
  await appForTest();
  const { exported, summary: gp } = genaiPerfArtifacts({ requests: 24, roleChunk: true });
  const res = await upload(
    uploadRequest([
      { name: "profile_export.json", content: JSON.stringify(exported) },
      { name: "profile_export_genai_perf.json", content: JSON.stringify(gp) },
    ]),
  );
  const { id } = (await res.json()) as { id: string };
  const run = await summary(id);
  expect(run.requests!.ttftMs!.mean).toBeCloseTo(
    (gp.time_to_first_token as unknown as { avg: number }).avg,
    6,
  );
  expect(run.requests!.e2eMs!.mean).toBeCloseTo((gp.request_latency as unknown as { avg: number }).avg, 6);
  expect(run.warnings.join("\n")).not.toMatch(/disagree/);
});
