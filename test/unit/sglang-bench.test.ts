/**
 * SGLang `bench_serving` result lines (docs/formats.md §SGLang bench_serving). Samples follow
 * python/sglang/bench_serving.py (test/generators/sglang-bench.ts); the small case is by hand.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agreementPayloadSchema } from "@/lib/api/aiperf-charts";
import { detectKind } from "@/lib/formats/detect";
import { readSglangResult } from "@/lib/formats/sglang-bench";
import { benchImportAnalyzer } from "@/lib/ingest/analyzers/bench-import";
import { diskIngestFile, runAnalyzer } from "../helpers/analyze";
import { sglangLine, sglangSweep } from "../generators/sglang-bench";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sglang-bench-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return diskIngestFile(p);
};

describe("SGLang bench_serving result", () => {
  it("is detected as SGLang's, not vLLM's or an aiperf summary, alone or as a sweep", () => {
    const one = JSON.stringify(sglangLine()) + "\n";
    expect(detectKind(Buffer.from(one), true)).toEqual({ kind: "sglang-bench", format: "jsonl" });
    expect(detectKind(Buffer.from(sglangSweep([1, 2, 4])), true).kind).toBe("sglang-bench");
  });

  it("maps the details by hand: seconds to ms, E2E to the last token, failures as errors", () => {
    const r = readSglangResult({
      ...sglangLine({ requests: 1 }),
      input_lens: [100, 80],
      output_lens: [3, 0],
      ttfts: [0.05, 0.0],
      itls: [[0.02, 0.04], []],
      errors: ["", "Traceback (most recent call last):\n  ...\naiohttp.ClientConnectorError: refused"],
    });
    const [a, b] = r.records!;
    expect(a.ttftMs).toBeCloseTo(50, 9);
    // 50 + 20 + 40 ms; ITL (110 − 50) / (3 − 1) = 30 ms.
    expect(a.e2eMs).toBeCloseTo(110, 9);
    expect(a.itlMs).toBeCloseTo(30, 9);
    expect(a.startNs).toBeNull();
    expect(b.error!.type).toBe("aiohttp.ClientConnectorError");
    expect(r.comparable).not.toContain("request_latency");
  });

  it("agrees with SGLang's TTFT, counts and throughputs; its E2E ends after the last token and is not checked", async () => {
    const line = sglangLine({ requests: 300, errorEvery: 30, details: true });
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [
      file("s.jsonl", JSON.stringify(line) + "\n"),
    ]);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    expect(agreement.rows.filter((x) => !x.agrees)).toEqual([]);
    expect(agreement.rows.map((x) => x.metric)).not.toContain("End-to-end latency (ms)");
    expect(result.requests).toMatchObject({ count: 300, errorCount: 10, durationS: line.duration });
    expect(result.requests!.requestThroughputPerS).toBeCloseTo(line.request_throughput as number, 9);
    // The last token precedes SGLang's latency by the tail chunk (0.4 ms).
    expect((line.mean_e2e_latency_ms as number) - result.requests!.e2eMs!.mean).toBeCloseTo(0.4, 6);
    expect(result.charts!["aiperf-timeline"]).toBeUndefined();
    expect(result.backend).toBe("SGLang bench_serving (sglang)");
    await handle.close();
  });

  it("imports the first line of a concurrency sweep and says so; figures only without details", async () => {
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [
      file("sweep.jsonl", sglangSweep([1, 4, 16])),
    ]);
    expect(result.info).toMatchObject({ concurrency: 1, benchmarkTool: "SGLang bench_serving" });
    expect(result.requests).toMatchObject({ source: "tool-summary", count: 40 });
    expect(result.requests!.ttftMs).toMatchObject({ count: 40 });
    expect(result.requests!.e2eMs!.p99).toBeGreaterThan(0);
    expect(result.warnings!.join("\n")).toMatch(/holds 3 benchmarks/);
    expect(result.warnings!.join("\n")).toMatch(/failed requests are not in it/);
    await handle.close();
  });
});
