/**
 * GuideLLM benchmark reports (docs/formats.md §GuideLLM): samples follow
 * src/guidellm/benchmark/schemas/{report,benchmark,metrics}.py and
 * src/guidellm/schemas/request_stats.py (test/generators/guidellm.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agreementPayloadSchema } from "@/lib/api/aiperf-charts";
import { detectKind } from "@/lib/formats/detect";
import { guidellmResults, parseGuidellmYaml } from "@/lib/formats/guidellm";
import { benchImportAnalyzer } from "@/lib/ingest/analyzers/bench-import";
import { diskIngestFile, runAnalyzer } from "../helpers/analyze";
import { guidellmBenchmark, guidellmReport } from "../generators/guidellm";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guidellm-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, doc: unknown) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, JSON.stringify(doc));
  return diskIngestFile(p);
};

describe("GuideLLM benchmarks.json", () => {
  it("is detected in both generations", () => {
    expect(detectKind(Buffer.from(JSON.stringify(guidellmReport([1, 4]))), true).kind).toBe(
      "guidellm-report",
    );
    const legacy = { benchmarks: [guidellmBenchmark({ legacy: true })] };
    expect(detectKind(Buffer.from(JSON.stringify(legacy)), true).kind).toBe("guidellm-report");
    // The YAML form is GuideLLM's, not taken for an engine config by its `backend:` keys.
    const yaml = "benchmarks:\n- config:\n    backend:\n      model: x\n  type_: generative_benchmark\n";
    expect(detectKind(Buffer.from(yaml), true)).toEqual({ kind: "guidellm-report", format: "yaml" });
  });

  it("maps one request: latency s → ms, GuideLLM's own TTFT and ITL, errors by status", () => {
    const [r] = guidellmResults(guidellmReport([2], { errorEvery: 5 }));
    const ok = r.records!.find((x) => !x.error)!;
    const src = guidellmBenchmark({ streams: 2, errorEvery: 5 }).requests.successful[0] as Record<
      string,
      number
    >;
    expect(ok.e2eMs).toBeCloseTo(src.request_latency * 1000, 9);
    expect(ok.ttftMs).toBe(src.time_to_first_token_ms);
    expect(ok.itlMs).toBe(src.inter_token_latency_ms);
    expect(r.records!.filter((x) => x.error)).toHaveLength(6);
    expect(r.records!.find((x) => x.error)!.error!.type).toBe("HTTPStatusError");
    expect(r).toMatchObject({
      tool: "GuideLLM",
      toolVersion: "0.5.1",
      concurrency: 2,
      label: "concurrent 2",
    });
  });

  it("agrees on counts and means; a rate sweep imports its first benchmark and says so", async () => {
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [
      file("benchmarks.json", guidellmReport([1, 4, 8], { requests: 60, errorEvery: 10 })),
    ]);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    expect(agreement.rows.filter((x) => !x.agrees)).toEqual([]);
    expect(new Set(agreement.rows.map((x) => x.stat))).toEqual(new Set(["count", "mean"]));
    expect(result.requests).toMatchObject({ count: 60, errorCount: 6 });
    expect(result.info).toMatchObject({ concurrency: 1, model: "Qwen/Qwen3-8B", benchmarkTool: "GuideLLM" });
    expect(result.warnings!.join("\n")).toMatch(/holds 3 benchmarks .* \(concurrent 1\)/);
    await handle.close();
  });

  it("says a sampled request list is a sample and does not hold it to the full figures", async () => {
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [
      file("sampled.json", guidellmReport([2], { requests: 40, sampleOf: 10 })),
    ]);
    expect(result.warnings!.join("\n")).toMatch(/sample of 10 of the 40 successful requests/);
    // The run's figures are GuideLLM's own for all 40, not the sample's.
    expect(result.requests).toMatchObject({ source: "tool-summary", count: 40 });
    expect(result.charts!["aiperf-agreement"]).toBeUndefined();
    await handle.close();
  });

  it("reads the older generation (args, run_stats, start_time)", async () => {
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [
      file("old.json", { benchmarks: [guidellmBenchmark({ legacy: true, requests: 20 })] }),
    ]);
    expect(result.requests).toMatchObject({ count: 20, errorCount: 0 });
    expect(result.requests!.durationS).toBeGreaterThan(0);
    expect(result.info).toMatchObject({ model: "Qwen/Qwen3-8B", concurrency: 2 });
    await handle.close();
  });

  // benchmarks.yaml and benchmarks.json in test/fixtures/guidellm/ hold one report (two
  // benchmarks, 12 requests each, every 6th errored) from test/generators/guidellm.ts; the YAML
  // was written from the JSON by PyYAML 6's `yaml.dump(model_dict)`, as report.py `save_file` does.
  it("reads benchmarks.yaml (PyYAML's dump) into the same benchmarks as benchmarks.json", async () => {
    const fixture = (name: string) => path.join(__dirname, "../fixtures/guidellm", name);
    const yamlFile = diskIngestFile(fixture("benchmarks.yaml"));
    expect([yamlFile.kind, yamlFile.format]).toEqual(["guidellm-report", "yaml"]);
    const fromJson = guidellmResults(JSON.parse(fs.readFileSync(fixture("benchmarks.json"), "utf8")));
    const fromYaml = guidellmResults(parseGuidellmYaml(fs.readFileSync(fixture("benchmarks.yaml"), "utf8"))!);
    expect(fromYaml).toEqual(fromJson);
    expect(fromYaml.map((r) => r.label)).toEqual(["concurrent 1", "concurrent 4"]);
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [yamlFile]);
    // 12 requests, of which requests 6 and 12 errored.
    expect(result.requests).toMatchObject({ count: 12, errorCount: 2 });
    expect(result.info).toMatchObject({ concurrency: 1, benchmarkTool: "GuideLLM" });
    await handle.close();
  });

  it("refuses a YAML file that is not a GuideLLM report without failing the run", () => {
    expect(parseGuidellmYaml("benchmarks: [unclosed")).toBeNull();
    expect(parseGuidellmYaml("benchmarks: 3\nargs: {}\n")).toBeNull();
  });

  it("gives a sweep profile's synchronous benchmark concurrency 1 (strategies.py SynchronousStrategy)", () => {
    const sync = guidellmBenchmark({ streams: 1 }) as Record<string, unknown> & { config: object };
    const doc = {
      ...guidellmReport([1]),
      benchmarks: [{ ...sync, config: { ...sync.config, strategy: { type_: "synchronous" } } }],
    };
    const [r] = guidellmResults(doc);
    expect(r).toMatchObject({ concurrency: 1, requestRate: null, label: "synchronous" });
  });
});
