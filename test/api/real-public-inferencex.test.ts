/**
 * InferenceX result files as InferenceX's CI wrote them, uploaded through the route and read
 * back from the API; the known answers are the files' own fields, parsed here.
 *
 * - real-public/inferencex-agg-kimik2.5-mi355x-vllm0.21: three fixed-ISL/OSL `agg_*.json`
 *   (InferenceX utils/process_result.py: `*_ms` → seconds under the name less `_ms`,
 *   `*_intvty` = 1000 / TPOT, `tput_per_gpu` = total tokens/s ÷ tp × pp × pcp).
 * - real-public/aiperf-0.8.0-sglang-glm5.1-agentic-conc16: `inferencex_agentic_result.json`
 *   (utils/agentic/aggregation/process_agentic_result.py `build_agg`) and the sweep's
 *   `sweep_aggregate/agg_bmk.json`, an array of 12 such results.
 */
import fs from "node:fs";
import { expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { runSummarySchema, type RunSummary } from "@/lib/api/schemas";
import { requestTiles } from "@/components/run-views/overview-request-tiles";
import { detectKind } from "@/lib/formats/detect";
import { describeRealPublic, realPublicFile, realPublicJson, realPublicParts } from "../helpers/real-public";
import { appForTest, idParams, uploadRequest } from "../helpers/test-app";

const AGG = "inferencex-agg-kimik2.5-mi355x-vllm0.21";
const AGENTIC = "aiperf-0.8.0-sglang-glm5.1-agentic-conc16";

type Result = Record<string, number | string | boolean | null>;

async function uploadParts(parts: Array<{ name: string; path: string }>) {
  const res = await upload(uploadRequest(parts));
  const body = (await res.json()) as {
    id: string;
    warnings: string[];
    runs?: Array<{ id: string }>;
    sweep?: { id: string };
  };
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body;
}

async function summary(id: string): Promise<RunSummary> {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

/** Every field of the result is in the run header under InferenceX's own name. */
function expectEveryField(run: RunSummary, r: Result) {
  for (const [k, v] of Object.entries(r)) {
    if (v === null || typeof v === "object") continue;
    const key = Object.keys(run.info).find((x) => x === `inferencex ${k}` || x === `inferencex ${k} (s)`);
    expect(key, k).toBeDefined();
    expect(run.info[key!], k).toBe(v);
  }
}

describeRealPublic(AGG, () => {
  const files = fs.readdirSync(realPublicFile(AGG, "")).filter((f) => f.startsWith("agg_"));

  it.each(files)("%s alone is a run showing InferenceX's numbers", async (name) => {
    await appForTest();
    const r = realPublicJson<Result>(AGG, name);
    const { id } = await uploadParts([{ name, path: realPublicFile(AGG, name) }]);
    const run = await summary(id);
    expectEveryField(run, r);
    // No request count in a fixed-ISL/OSL result: no requests block to invent one for; every
    // figure is in the header under its name, and the facts say what ran.
    expect(run.requests).toBeNull();
    // Derived figures as InferenceX's: per GPU its own, tok/s per user at the median 1000 ÷ TPOT.
    expect(run.derived.outputTokPerSPerGpu.value).toBeCloseTo(r.output_tput_per_gpu as number, 9);
    expect(run.derived.totalTokPerSPerGpu.value).toBeCloseTo(r.tput_per_gpu as number, 9);
    expect(run.derived.tokPerUser.p50.value).toBeCloseTo(r.median_intvty as number, 9);
    expect(run.facts.gpuCount).toMatchObject({ value: r.tp });
    expect(run.facts.concurrency).toMatchObject({ value: r.conc });
    expect(run.facts.isl).toMatchObject({ value: r.isl });
    expect(run.facts.model).toMatchObject({ value: r.model });
    expect(run.info.benchmarkTool).toBe("InferenceX");
  });

  it("a folder of them is one run per file", async () => {
    await appForTest();
    const body = await uploadParts(realPublicParts(AGG));
    expect(body.runs).toHaveLength(files.length);
    const concs = await Promise.all(
      body.runs!.map(async (x) => (await summary(x.id)).facts.concurrency?.value),
    );
    expect(concs.sort()).toEqual(files.map((f) => realPublicJson<Result>(AGG, f).conc).sort());
    // Their configured ISL/OSL differ (1k/1k and 8k/1k): runs of two workloads are no one sweep,
    // and the upload says why.
    const shapes = new Set(
      files.map((f) => {
        const r = realPublicJson<Record<string, unknown>>(AGG, f);
        return `${r.isl}/${r.osl}`;
      }),
    );
    if (shapes.size > 1) {
      expect(body.sweep).toBeUndefined();
      expect(body.warnings.join("\n")).toMatch(/ISL/);
    }
  });
});

describeRealPublic(AGENTIC, () => {
  const agentic = realPublicJson<Result>(AGENTIC, "inferencex_agentic_result.json");
  const agg = realPublicJson<Result[]>(AGENTIC, "sweep_aggregate/agg_bmk.json");

  it("detects the agentic result and the sweep aggregate", () => {
    for (const rel of ["inferencex_agentic_result.json", "sweep_aggregate/agg_bmk.json"])
      expect(detectKind(fs.readFileSync(realPublicFile(AGENTIC, rel)), true).kind).toBe("inferencex-result");
  });

  it("reads the agentic result alone as a run", async () => {
    await appForTest();
    const { id } = await uploadParts([
      {
        name: "inferencex_agentic_result.json",
        path: realPublicFile(AGENTIC, "inferencex_agentic_result.json"),
      },
    ]);
    const run = await summary(id);
    expectEveryField(run, agentic);
    const q = run.requests!;
    expect(q.count).toBe(agentic.num_requests_total);
    expect(q.count - q.errorCount).toBe(agentic.num_requests_successful);
    expect(q.outputTokenThroughputPerS).toBe(agentic.output_tput_tps);
    expect(q.durationS).toBe(agentic.duration_seconds);
    expect(run.facts.gpuCount).toMatchObject({ value: agentic.tp });
    expect(run.facts.concurrency).toMatchObject({ value: agentic.conc });
    // No median or p99 in the file: the tile says so, and never that no request recorded it.
    const ttftTile = requestTiles(run).find((t) => t.label.startsWith("TTFT"))!;
    expect(ttftTile.hint).toMatch(/InferenceX's summary has no p50 and p99/);
  });

  it("reads the 12-run aggregate alone as InferenceX's 12 runs", async () => {
    await appForTest();
    const body = await uploadParts([
      { name: "sweep_aggregate/agg_bmk.json", path: realPublicFile(AGENTIC, "sweep_aggregate/agg_bmk.json") },
    ]);
    expect(agg).toHaveLength(12);
    expect(body.runs).toHaveLength(agg.length);
    expect(body.sweep).toBeDefined();
    const ttfts = await Promise.all(
      body.runs!.map(async (x) => (await summary(x.id)).info["inferencex mean_ttft (s)"]),
    );
    expect(ttfts).toEqual(agg.map((r) => r.mean_ttft));
  });

  // utils/agentic-benchmark/scripts/collect_sweep_results.py: one row per experiment, in ms.
  it("reads the sweep's summary.csv alone as one run per experiment", async () => {
    await appForTest();
    const text = fs.readFileSync(realPublicFile(AGENTIC, "sweep_aggregate/summary.csv"), "utf8");
    const [head, ...rows] = text.trim().split("\n");
    const cols = head.split(",");
    const table = rows.map((r) => Object.fromEntries(r.split(",").map((c, k) => [cols[k], c])));
    const body = await uploadParts([
      { name: "sweep_aggregate/summary.csv", path: realPublicFile(AGENTIC, "sweep_aggregate/summary.csv") },
    ]);
    expect(body.runs).toHaveLength(table.length);
    const runs = await Promise.all(body.runs!.map((x) => summary(x.id)));
    runs.forEach((run, k) => {
      const row = table[k];
      expect(run.requests!.count).toBe(Number(row.num_requests));
      expect(run.requests!.ttftMs!.mean).toBe(Number(row.mean_ttft_ms));
      expect(run.requests!.ttftMs!.p99).toBe(Number(row.p99_ttft_ms));
      expect(run.requests!.e2eMs!.p50).toBe(Number(row.p50_latency_ms));
      expect(run.requests!.requestThroughputPerS).toBe(Number(row.throughput_rps));
      expect(run.facts.concurrency).toMatchObject({ value: Number(row.conc) });
    });
  });

  // utils/calc_success_rate.py: CI jobs per hardware.
  it("reads run_stats.json as InferenceX's job counts", async () => {
    await appForTest();
    const stats = realPublicJson<Record<string, { n_success: number; total: number }>>(
      AGENTIC,
      "sweep_aggregate/run_stats.json",
    );
    const { id } = await uploadParts([
      {
        name: "sweep_aggregate/run_stats.json",
        path: realPublicFile(AGENTIC, "sweep_aggregate/run_stats.json"),
      },
    ]);
    const run = await summary(id);
    expect(run.info["inferencex run_stats mi355x"]).toBe(
      `${stats.mi355x.n_success} of ${stats.mi355x.total} jobs succeeded`,
    );
    expect(run.info["inferencex run_stats h100"]).toBeUndefined();
  });

  it("beside the aiperf files of the same run adds InferenceX's figures, not a second run", async () => {
    await appForTest();
    const body = await uploadParts(realPublicParts(AGENTIC));
    expect(body.runs).toBeUndefined();
    const run = await summary(body.id);
    // aiperf's own requests are the run's; InferenceX's are stated beside them.
    expect(run.requests!.source).toBe("aiperf");
    expect(run.info["inferencex mean_ttft (s)"]).toBe(agentic.mean_ttft);
    expect(run.requests!.ttftMs!.mean).toBeCloseTo((agentic.mean_ttft as number) * 1000, 6);
    // InferenceX's figures held to the records they were computed from.
    expect(run.info.inferencexAgreesWithRecords).toMatch(/^4 of 4 figures/);
    // The run is aiperf's: its labels are aiperf's, not InferenceX's.
    expect(run.info.benchmarkTool).toBeUndefined();
    expect(requestTiles(run)[0].hint).toMatch(/aiperf's request count/);
    expect(run.warnings.join("\n")).not.toMatch(/InferenceX's result disagrees/);
    expect(run.warnings.join("\n")).toMatch(/agg_bmk\.json is InferenceX's aggregate of 12 runs/);
    expect(run.warnings.join("\n")).toMatch(/summary\.csv is InferenceX's sweep summary of 12 runs/);
    expect(run.info["inferencex run_stats mi355x"]).toBe("12 of 12 jobs succeeded");
  });
});

/**
 * Newer agentic results nest the request figures (InferenceX utils/agentic/aggregation/
 * request_metrics.py `compute_request_metrics` → `request_metrics.latency.ttft.p50`, …): a
 * reference output of InferenceX's aggregation (test/fixtures/inferencex-aggregation) is read
 * under the same names as the flat ones.
 */
it("reads the nested request_metrics of newer agentic results", async () => {
  const { inferencexResults } = await import("@/lib/formats/inferencex-result");
  const doc = JSON.parse(
    fs.readFileSync(
      "test/fixtures/inferencex-aggregation/cases/req-throughput-per-gpu/reference-output.main-843c6254.json",
      "utf8",
    ),
  ) as {
    num_requests_successful: number;
    request_metrics: {
      latency: Record<string, Record<string, number>>;
      throughput: { output: { tokens_per_second: number }; per_gpu: { total_tput_tps: number } };
    };
  };
  const [r] = inferencexResults(doc);
  const m = doc.request_metrics;
  expect(r.summary.metrics.time_to_first_token).toMatchObject({
    avg: m.latency.ttft.mean * 1000,
    p50: m.latency.ttft.p50 * 1000,
    p95: m.latency.ttft.p95 * 1000,
  });
  expect(r.summary.metrics.request_latency!.p90).toBeCloseTo(m.latency.e2el.p90 * 1000, 9);
  expect(r.summary.metrics.output_token_throughput!.avg).toBe(m.throughput.output.tokens_per_second);
  expect(r.summary.metrics.request_count!.avg).toBe(doc.num_requests_successful);
  expect(r.facts["inferencex tput_per_gpu"]).toBe(m.throughput.per_gpu.total_tput_tps);
});

it("an InferenceX result that does not match the records beside it is said to differ", async () => {
  const { inferencexAgreement } = await import("@/lib/metrics/inferencex-agreement");
  const stats = { count: 10, mean: 120, p50: 118, p99: 150 };
  const requests = {
    source: "aiperf",
    count: 10,
    errorCount: 0,
    warmupCount: 0,
    durationS: 10,
    ttftMs: stats,
    e2eMs: { ...stats, mean: 900 },
    itlMs: null,
    inputTokens: null,
    outputTokens: null,
    outputTokenThroughputPerS: 50,
  };
  const same = {
    "inferencex num_requests_successful": 10,
    "inferencex mean_ttft (s)": 0.12,
    "inferencex mean_e2el (s)": 0.9,
  };
  expect(inferencexAgreement(requests, same)).toEqual({ compared: 3, differences: [] });
  const other = { ...same, "inferencex mean_ttft (s)": 0.2 };
  expect(inferencexAgreement(requests, other)!.differences).toEqual([
    "TTFT mean (ms) 120 here vs 200 in InferenceX",
  ]);
  expect(inferencexAgreement({ ...requests, source: "tool-summary" }, same)).toBeNull();
});
