/**
 * GuideLLM reports as GuideLLM wrote them (real-public/guidellm-0.2-stripped-fixture: GuideLLM's
 * own tests/unit/entrypoints/assets/benchmarks_stripped.{json,yaml}, a 46-request synchronous
 * benchmark whose request list was stripped to one request), uploaded through the route and read
 * back from the API. The known answers are GuideLLM's own `metrics` and `request_totals`, parsed
 * from the file here. GuideLLM's rules: its metrics count only the requests overlapping its
 * measurement window (src/guidellm/benchmark/schemas/accumulator.py `get_within_range`, window
 * from `scheduler_metrics.measure_start_time` / `measure_end_time`, metrics.py
 * `GenerativeMetrics.compile`); the older generation (v0.3.1 src/guidellm/benchmark/benchmark.py)
 * keeps `request_totals` beside `metrics` and a sampled list (`set_sample_size`).
 */
import fs from "node:fs";
import { expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { runSummarySchema, type RunSummary } from "@/lib/api/schemas";
import { guidellmResults } from "@/lib/formats/guidellm";
import { benchmarkTool, definitionText, requestsDefinition } from "@/components/charts/definitions";
import { requestTiles } from "@/components/run-views/overview-request-tiles";
import { describeRealPublic, realPublicFile, realPublicJson } from "../helpers/real-public";
import { appForTest, idParams, uploadRequest } from "../helpers/test-app";
import { guidellmBenchmark, guidellmReport } from "../generators/guidellm";

const FOLDER = "guidellm-0.2-stripped-fixture";

type Dist = { mean: number; median: number; count: number; total_sum: number };
type Metric = Record<"successful" | "errored" | "incomplete" | "total", Dist>;

async function uploadParts(parts: Array<{ name: string; path?: string; content?: string }>) {
  const res = await upload(uploadRequest(parts));
  const body = (await res.json()) as { id: string; warnings?: string[] };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body;
}

async function summary(id: string): Promise<RunSummary> {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

describeRealPublic(FOLDER, () => {
  const report = realPublicJson<{
    benchmarks: Array<{
      metrics: Record<string, Metric>;
      request_totals: { successful: number; errored: number; incomplete: number };
      duration: number;
      args: { warmup_number: number | null; warmup_duration: number | null };
      requests: { successful: unknown[] };
    }>;
  }>(FOLDER, "benchmarks_stripped.json");
  const b = report.benchmarks[0];
  const m = b.metrics;

  it("shows GuideLLM's own figures, not the one request its list kept", async () => {
    await appForTest();
    const { id } = await uploadParts([
      { name: "benchmarks_stripped.json", path: realPublicFile(FOLDER, "benchmarks_stripped.json") },
    ]);
    const run = await summary(id);
    const r = run.requests!;
    expect(b.requests.successful).toHaveLength(1);
    expect(r.source).toBe("tool-summary");
    expect(r.count - r.errorCount).toBe(b.request_totals.successful); // 46
    expect(r.errorCount).toBe(b.request_totals.errored + b.request_totals.incomplete);
    expect(r.requestThroughputPerS).toBeCloseTo(m.requests_per_second.successful.mean, 9); // 1.548
    expect(r.outputTokenThroughputPerS).toBeCloseTo(m.output_tokens_per_second.successful.mean, 9); // 198.13
    expect(r.ttftMs!.mean).toBeCloseTo(m.time_to_first_token_ms.successful.mean, 9); // 16.79
    expect(r.e2eMs!.mean).toBeCloseTo(m.request_latency.successful.mean * 1000, 6); // 644.47
    expect(r.inputTokens!.mean).toBeCloseTo(m.prompt_token_count.successful.mean, 9);
    expect(r.durationS).toBeCloseTo(b.duration, 9);
    // The console's other columns: Tok Total, TPOT, Concurrency, Tot Tok/sec, incomplete.
    expect(r.outputTokensTotal).toBe(m.output_token_count.successful.total_sum); // 5888
    expect(r.ttftMs!.p50).toBe(m.time_to_first_token_ms.successful.median);
    expect(run.info.guidellmTpotMeanMs).toBe(m.time_per_output_token_ms.successful.mean);
    expect(run.info.guidellmMeanConcurrency).toBe(m.request_concurrency.successful.mean);
    expect(run.info.guidellmTotalTokensPerS).toBe(m.tokens_per_second.successful.mean);
    expect(run.info.incompleteRequests).toBe(b.request_totals.incomplete);
    // args.warmup_number and warmup_duration are null: GuideLLM ran no warm-up.
    expect(b.args.warmup_number).toBeNull();
    expect(b.args.warmup_duration).toBeNull();
    expect(r).toMatchObject({ warmupCount: 0, warmupSource: "config" });
    const said = run.warnings.join("\n");
    expect(said).toMatch(/sample of 1 of the 46 successful requests its metrics count/);

    expect(said).not.toMatch(/disagree/);
    expect(run.info).toMatchObject({ benchmarkTool: "GuideLLM", concurrency: 1 });
  });

  it("reads the JSON and YAML copies of one report as one benchmark", async () => {
    await appForTest();
    const body = await uploadParts([
      { name: "benchmarks_stripped.json", path: realPublicFile(FOLDER, "benchmarks_stripped.json") },
      { name: "benchmarks_stripped.yaml", path: realPublicFile(FOLDER, "benchmarks_stripped.yaml") },
      {
        name: "benchmarks_stripped_output.txt",
        path: realPublicFile(FOLDER, "benchmarks_stripped_output.txt"),
      },
    ]);
    const run = await summary(body.id);
    const said = run.warnings.join("\n");
    expect(said).not.toMatch(/holds 2 benchmarks|only the first/);
    expect(said).toMatch(
      /benchmarks_stripped\.yaml holds the same benchmark (.* )?as benchmarks_stripped\.json/,
    );
    expect(run.requests!.count - run.requests!.errorCount).toBe(b.request_totals.successful);
  });

  it("parses the YAML copy into the same benchmark as the JSON", async () => {
    const { parseGuidellmYaml } = await import("@/lib/formats/guidellm");
    const yaml = parseGuidellmYaml(
      fs.readFileSync(realPublicFile(FOLDER, "benchmarks_stripped.yaml"), "utf8"),
    );
    expect(guidellmResults(yaml!)).toEqual(guidellmResults(report as unknown as Record<string, unknown>));
  });
});

/**
 * Report schema 2 lists every request, warm-up and cool-down included, while its metrics count
 * only those overlapping [measure_start_time, measure_end_time] (accumulator.py
 * `get_within_range`: request_end_time ≥ start and request_start_time ≤ end). The generator
 * (test/generators/guidellm.ts) writes a whole list; here the window is narrowed as GuideLLM's
 * warm-up and cool-down would, and the metrics rebuilt from the requests inside it.
 */
it("counts only the requests inside GuideLLM's measurement window (warm-up and cool-down left out)", async () => {
  await appForTest();
  const doc = guidellmReport([2], { requests: 40 });
  const bench = doc.benchmarks[0] as ReturnType<typeof guidellmBenchmark> & {
    scheduler_metrics: Record<string, number>;
  };
  const reqs = bench.requests.successful as Array<Record<string, number>>;
  const sorted = [...reqs].sort((a, b) => a.request_start_time - b.request_start_time);
  // Warm-up ends when the 5th request ends; cool-down starts when the 5th-last starts.
  const start = sorted[4].request_end_time + 1e-6;
  const end = sorted[sorted.length - 5].request_start_time - 1e-6;
  const inside = reqs.filter((r) => r.request_end_time >= start && r.request_start_time <= end);
  expect(inside.length).toBeLessThan(reqs.length);
  // GuideLLM's metrics of the window, as metrics.py compiles them from `inside`.
  const mean = (k: string) => inside.reduce((a, r) => a + r[k], 0) / inside.length;
  const whole = guidellmBenchmark({ streams: 2, requests: 40 });
  const metrics = {
    ...whole.metrics,
    request_totals: { successful: inside.length, errored: 0, incomplete: 0, total: inside.length },
    time_to_first_token_ms: {
      ...whole.metrics.time_to_first_token_ms,
      successful: {
        ...whole.metrics.time_to_first_token_ms.successful,
        count: inside.length,
        mean: mean("time_to_first_token_ms"),
      },
    },
    request_latency: {
      ...whole.metrics.request_latency,
      successful: {
        ...whole.metrics.request_latency.successful,
        count: inside.length,
        mean: mean("request_latency"),
      },
    },
  };
  const windowed = {
    ...doc,
    benchmarks: [
      {
        ...bench,
        metrics,
        scheduler_metrics: { ...bench.scheduler_metrics, measure_start_time: start, measure_end_time: end },
        start_time: start,
        end_time: end,
        duration: end - start,
      },
    ],
  };
  const { id } = await uploadParts([{ name: "benchmarks.json", content: JSON.stringify(windowed) }]);
  const run = await summary(id);
  const r = run.requests!;
  expect(r.source).toBe("aiperf");
  expect(r.count).toBe(inside.length);
  expect(r.warmupCount).toBe(reqs.length - inside.length);
  expect(r.warmupSource).toBe("records");
  expect(r.ttftMs!.mean).toBeCloseTo(mean("time_to_first_token_ms"), 9);
  expect(r.e2eMs!.mean).toBeCloseTo(mean("request_latency") * 1000, 6);
  expect(r.requestThroughputPerS).toBeCloseTo(inside.length / (end - start), 9);
  // tok/s per user from the rows of a whole list: 1000 ÷ each request's TPOT (GuideLLM's ITL).
  const perUser = inside.map((x) => 1000 / x.inter_token_latency_ms);
  expect(run.derived.tokPerUser.mean.value).toBeCloseTo(
    perUser.reduce((a, v) => a + v, 0) / perUser.length,
    9,
  );
  // Described in GuideLLM's words, its measurement window named.
  const tiles = requestTiles(run);
  expect(tiles[0].hint).toMatch(/successful \(GuideLLM's count\)/);
  expect(tiles[0].hint).not.toMatch(/aiperf/);
  expect(definitionText(requestsDefinition(benchmarkTool(run.info)))).toMatch(
    /GuideLLM's benchmark \(its measurement window\).*warm-up and cool-down excluded.*GuideLLM's per-request results/,
  );
  const said = run.warnings.join("\n");
  expect(said).toMatch(
    new RegExp(`${reqs.length - inside.length} listed requests lie outside GuideLLM's measurement window`),
  );
  expect(said).not.toMatch(/sample of|disagree/);
});
