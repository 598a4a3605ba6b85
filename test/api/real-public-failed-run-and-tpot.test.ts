/**
 * Review W1/M4 on Compare and report.html, on real files read in place from
 * ../shared/fixtures/real-public/: a `vllm bench serve` run whose requests all failed (vLLM writes
 * 0.0 for every figure, vllm/benchmarks/serve.py `calculate_metrics` np.mean(ttfts or 0) and
 * completed / dur_s) shows no figure at all on the Overview, in Compare and in its report, never
 * 0; and the per-request (E2E − TTFT) ÷ (output tokens − 1) that vLLM and SGLang call TPOT is
 * named TPOT on Compare, in the compare report and in the run report's figures. Expected values
 * are the producers' own, parsed from their files here.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as compare } from "@/app/api/compare/route";
import { GET as getCompareReport } from "@/app/api/compare/report.html/route";
import { GET as getReport } from "@/app/api/runs/[id]/report.html/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
import { uploadResponseSchema } from "@/lib/api/schemas";
import { itlWordsOf } from "@/lib/metrics/request-words";
import { NO_SUCCESSFUL_REQUEST, requestTiles } from "@/components/run-views/overview-request-tiles";
import { describeRealPublic, realPublicFile, realPublicParts } from "../helpers/real-public";
import { readRun } from "../helpers/read-api";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

type Json = Record<string, unknown>;

/** A report's visible text, cells separated by " | ". */
function reportText(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, "")
    .replace(/<svg[\s\S]*?<\/svg>/g, "")
    .replace(/<[^>]+>/g, " | ")
    .replace(/&amp;/g, "&")
    .replace(/(\s*\|\s*)+/g, " | ");
}

const GLM = "vllm-bench-serve-glm4.7-fp8-b200-with-console";
const FAILED = "run_1_TP4_DP2_CTX2048_C100_P100_O128";
const OK = "run_1_TP8_DP1_CTX1024_C100_P100_O128";

describeRealPublic(GLM, () => {
  it("the all-failed TP4 run: no 0 on the Overview, in Compare or in its report; TP8's TPOT is named TPOT", async () => {
    const failedJson = JSON.parse(fs.readFileSync(realPublicFile(GLM, `${FAILED}.json`), "utf8")) as Json;
    const okJson = JSON.parse(fs.readFileSync(realPublicFile(GLM, `${OK}.json`), "utf8")) as Json;
    // vLLM's placeholders: every figure 0.0 beside completed 0.
    expect(failedJson.completed).toBe(0);
    expect([
      failedJson.output_throughput,
      failedJson.request_throughput,
      failedJson.total_token_throughput,
    ]).toEqual([0, 0, 0]);
    const res = await upload(uploadRequest(realPublicParts(GLM)));
    expect(res.status).toBe(201);
    const ids = uploadResponseSchema.parse(await res.json()).runs!.map((r) => r.id);
    const runs = await Promise.all(ids.map(readRun));
    const failed = runs.find((r) => r.files.some((f) => f.name === `${FAILED}.json`))!;
    const ok = runs.find((r) => r !== failed)!;

    // Overview: no tile reads 0; throughput says why it has no value.
    const r = failed.requests!;
    expect(r.outputTokenThroughputPerS).toBeNull();
    expect(r.requestThroughputPerS).toBeNull();
    for (const k of ["totalInputTokens", "totalTokenThroughputPerS", "peakOutputTokensPerS"])
      expect(failed.info[k]).toBeUndefined();
    const tiles = requestTiles(failed);
    for (const t of tiles.slice(1)) expect(t.value).not.toMatch(/^0(\.0+)?\b/);
    // Every figure over successful requests says there was none, in a red tile: never 0, never blank.
    for (const id of ["tile-requests", "tile-ttft", "tile-e2e", "tile-itl", "tile-output-throughput"])
      expect(
        tiles.find((t) => t.testId === id),
        id,
      ).toMatchObject({ tone: "danger" });
    for (const id of ["tile-ttft", "tile-e2e", "tile-itl", "tile-output-throughput"])
      expect(tiles.find((t) => t.testId === id)).toMatchObject({
        value: NO_SUCCESSFUL_REQUEST,
        hint: "every request failed (100 errors): see Errors under Throughput",
      });
    // vLLM's word for (E2E − TTFT) ÷ (output tokens − 1) is TPOT; the OK run's tile is named so and filled.
    const okTpot = requestTiles(ok).find((t) => t.testId === "tile-itl")!;
    expect(okTpot.label).toBe("TPOT p50 / p99");
    expect(okTpot.value).toMatch(/ ms \/ .* ms$/);
    expect(okTpot.tone).toBeUndefined();
    expect(requestTiles(ok).some((t) => t.tone === "danger")).toBe(false);
    expect(tiles.some((t) => t.label.startsWith("Output tokens ("))).toBe(false);
    expect(tiles.find((t) => t.label === "Output tokens")).toBeUndefined();
    for (const v of Object.values(failed.derived.tokPerUser)) expect(v.value).toBeNull();
    for (const k of ["outputTokPerSPerGpu", "totalTokPerSPerGpu", "requestsPerSPerGpu"] as const)
      expect(failed.derived[k]).toEqual({ value: null, reason: "no successful request" });

    // Compare: every cell of the failed run is empty, none 0; the TPOT row is named TPOT and holds vLLM's median TPOT.
    const cmp = compareResponseSchema.parse(
      await (
        await compare(new Request(`http://localhost/api/compare?runs=${ok.id},${failed.id}&stat=p50`))
      ).json(),
    );
    for (const row of cmp.rows) expect(row.cells.find((c) => c.runId === failed.id)!.value).toBeNull();
    const tpot = cmp.rows.find((row) => row.key === "itl")!;
    expect(tpot.label).toBe("TPOT p50");
    expect(tpot.description).toMatch(/vLLM bench serve and SGLang bench_serving call it TPOT/);
    expect(tpot.cells.find((c) => c.runId === ok.id)!.value).toBe(okJson.median_tpot_ms);
    expect(cmp.rows.map((row) => row.label)).not.toContain("ITL p50");

    // The compare report names it the same way.
    const cmpHtml = reportText(
      await (
        await getCompareReport(
          new Request(`http://localhost/api/compare/report.html?runs=${ok.id},${failed.id}&stat=p50`),
        )
      ).text(),
    );
    expect(cmpHtml).toContain("TPOT p50");
    expect(cmpHtml).not.toMatch(/\bITL p50\b/);

    // The failed run's report: latency "not recorded", no 0 ms, no 0 tok/s, no 0 req/s.
    const html = reportText(
      await (
        await getReport(
          new Request(`http://localhost/api/runs/${failed.id}/report.html`),
          idParams(failed.id),
        )
      ).text(),
    );
    expect(html).toMatch(/Time to first token \| ms \| not recorded/);
    expect(html).toMatch(/TPOT \(time per output token\) \| ms \| not recorded/);
    expect(html).not.toMatch(/\| 0(\.0+)? (ms|tok\/s|req\/s|requests\/s)\b/);
    expect(html).not.toMatch(/(throughput|tokens)[^|]*\| 0(\.0+)? \|/i);
  });
});

const SGLANG = "sglang-0.5.9-bench-serving-output-details";
describeRealPublic(SGLANG, () => {
  it("a run with SGLang's per-request arrays: the report's latency figures name SGLang's TPOT, not inter-token latency", async () => {
    const part = realPublicParts(SGLANG).find((p) => p.name.endsWith(".jsonl"))!;
    const res = await upload(uploadRequest([part]));
    expect(res.status).toBe(201);
    const id = uploadResponseSchema.parse(await res.json()).id;
    const html = await (
      await getReport(new Request(`http://localhost/api/runs/${id}/report.html`), idParams(id))
    ).text();
    expect(html).toContain("TPOT (time per output token): histogram");
    expect(html).not.toContain("Inter-token latency: histogram");
  });
});

describe("the ITL/TPOT row's name across runs", () => {
  const run = (tool: string | null) => ({
    info: tool ? { benchmarkTool: tool } : {},
    requests: { source: "records" as const, itlMs: { count: 1, mean: 1, p50: 1, p99: 1 } },
  });
  it("TPOT when every run's tool calls it so, ITL for aiperf and genai-perf, both names when mixed", () => {
    expect(itlWordsOf([run("vLLM bench serve"), run("SGLang bench_serving")]).short).toBe("TPOT");
    expect(itlWordsOf([run(null), run("genai-perf")]).short).toBe("ITL");
    expect(itlWordsOf([run(null), run("vLLM bench serve")]).short).toBe("ITL / TPOT");
  });
});
