/**
 * A single document larger than the detection head (DETECT_HEAD_BYTES) is told by its content,
 * wherever the head ends (docs/formats.md §Detection). Samples follow the producers' writers:
 * - GuideLLM: src/guidellm/benchmark/schemas/report.py `save_file` writes `json.dumps` of the
 *   report (compact here, one line) or PyYAML's `yaml.dump` (block style, keys sorted), so a
 *   benchmark's `type_` comes after its long `requests` lists (test/generators/guidellm.ts);
 * - vLLM: vllm/benchmarks/serve.py's `--save-detailed` result, here with its keys sorted so the
 *   per-request arrays (`generated_texts`, `itls`, …) come before `request_throughput`
 *   (test/generators/vllm-bench.ts).
 * The expected figures are the producer's own numbers in the same sample.
 */
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { POST as upload } from "@/app/api/runs/route";
import { uploadResponseSchema } from "@/lib/api/schemas";
import { DETECT_HEAD_BYTES } from "@/lib/formats/detect";
import { guidellmRateReport } from "../generators/guidellm";
import { vllmBenchResult } from "../generators/vllm-bench";
import { freshAppEachTest, uploadRequest } from "../helpers/test-app";
import { readRun } from "../helpers/read-api";
import { sortKeys } from "../helpers/sort-keys";

freshAppEachTest();

async function uploadOne(name: string, content: string) {
  expect(Buffer.byteLength(content)).toBeGreaterThan(2 * DETECT_HEAD_BYTES);
  const res = await upload(uploadRequest([{ name, content }]));
  expect(res.status).toBe(201);
  return uploadResponseSchema.parse(await res.json());
}

describe("a document larger than the detection head", () => {
  const rates = [2, 5];
  const doc = guidellmRateReport(rates, { requests: 2500 });

  async function expectGuidellm(name: string, content: string) {
    const body = await uploadOne(name, content);
    expect(body.files.map((f) => f.kind)).toEqual(["guidellm-report"]);
    expect(body.runs).toHaveLength(rates.length);
    for (const [i, b] of doc.benchmarks.entries()) {
      const run = await readRun(body.runs![i].id);
      expect(run.status).toBe("ready");
      expect(run.facts.requestRate).toMatchObject({ value: rates[i], source: "GuideLLM result" });
      expect(run.requests!.count).toBe(b.metrics.request_totals.successful);
      expect(run.requests!.ttftMs!.mean).toBeCloseTo(b.metrics.time_to_first_token_ms.successful.mean, 9);
    }
  }

  it("GuideLLM as compact one-line JSON is a GuideLLM report, not aiperf records", async () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain("\n");
    await expectGuidellm("benchmarks.json", text);
  });

  it("GuideLLM as YAML with sorted keys is a GuideLLM report, not an engine config", async () => {
    const text = stringify(doc, { sortMapEntries: true });
    expect(text.indexOf("generative_benchmark")).toBeGreaterThan(DETECT_HEAD_BYTES);
    await expectGuidellm("benchmarks.yaml", text);
  });

  it("vLLM: a result whose per-request arrays come before its summary keys is a vLLM result", async () => {
    const result = vllmBenchResult({ requests: 6000, concurrency: 8, detailed: true, seed: 5 });
    const text = JSON.stringify(sortKeys(result));
    expect(text.indexOf('"request_throughput"')).toBeGreaterThan(DETECT_HEAD_BYTES);
    const body = await uploadOne("result.json", text);
    expect(body.files.map((f) => f.kind)).toEqual(["vllm-bench"]);
    const run = await readRun(body.id);
    expect(run.status).toBe("ready");
    expect(run.requests!.count).toBe(result.completed);
    expect(run.requests!.ttftMs!.mean).toBeCloseTo(result.mean_ttft_ms as number, 6);
  });
});
