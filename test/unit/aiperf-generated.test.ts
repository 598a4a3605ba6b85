import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agreementPayloadSchema, gpuPayloadSchema, timelinePayloadSchema } from "@/lib/api/aiperf-charts";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { analyze, diskFile, generatedFiles } from "./aiperf-helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiperf-gen-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("aiperf agreement on generated runs where both files are complete", () => {
  it("matches aiperf's JSON summary exactly (warmup and errors excluded)", async () => {
    const options = { records: 3000, warmup: 7, errorEvery: 50, concurrency: 6, seed: 3 };
    const gen = await generateAiperfRun(path.join(dir, "a"), options);
    const { result, handle } = await analyze(generatedFiles(gen));
    expect(result.warnings!.filter((w) => w.startsWith("aiperf summary disagrees:"))).toEqual([]);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    expect(agreement.disagreements).toBe(0);
    expect(agreement.rows.length).toBeGreaterThan(30);
    const r = result.requests!;
    expect(r).toMatchObject({ count: 3000, errorCount: 60, warmupCount: 7 });
    expect(r.ttftMs!.count).toBe(2940);
    expect(r.durationS).toBeCloseTo(gen.durationS, 9);
    expect(r.requestThroughputPerS).toBeCloseTo(gen.summary.request_throughput.avg, 9);
    expect(r.outputTokenThroughputPerS).toBeCloseTo(gen.summary.output_token_throughput.avg, 6);
    // Uniform TTFT on [20, 120): the median sits near 70 ms.
    expect(Math.abs(r.ttftMs!.p50 - 70)).toBeLessThan(4);
    const timeline = timelinePayloadSchema.parse(result.charts!["aiperf-timeline"]);
    const maxInFlight = Math.max(...timeline.points.map((p) => p.inFlightMax));
    expect(maxInFlight).toBe(6);
    // Dispersed throughput counts every output token once: its area is Σ output tokens, i.e.
    // aiperf's output token throughput × the benchmark duration.
    const area = timeline.points.reduce((a, p) => a + p.outputTokensPerS * timeline.bucketS, 0);
    expect(area).toBeCloseTo(gen.summary.output_token_throughput.avg * gen.durationS, 3);
    const errs = result.charts!["aiperf-errors"] as {
      total: number;
      groups: Array<{ type: string; count: number }>;
    };
    expect(errs.groups[0]).toMatchObject({ type: "HTTPStatusError", count: 60 });
    expect(result.info).toMatchObject({
      model: "synthetic/model",
      concurrency: 6,
      requestCount: 3000,
      schemaVersion: "1.1",
    });
    await handle.close();
  });

  it("matches the CSV summary within its 2-decimal rounding, and reads config v2", async () => {
    const gen = await generateAiperfRun(path.join(dir, "b"), {
      records: 500,
      concurrency: 3,
      seed: 9,
      config: "v2",
    });
    const csvOnly = await analyze([diskFile(gen.jsonlPath, "x.jsonl", 0), diskFile(gen.csvPath, "x.csv", 1)]);
    const agreement = agreementPayloadSchema.parse(csvOnly.result.charts!["aiperf-agreement"]);
    expect(agreement.disagreements).toBe(0);
    expect(agreement.rows.some((r) => r.metric === "TTFT (ms)" && r.stat === "p99")).toBe(true);
    await csvOnly.handle.close();
    const v2 = await analyze([diskFile(gen.summaryPath, "s.json", 0)]);
    expect(v2.result.info).toMatchObject({
      model: "synthetic/model",
      concurrency: 3,
      requestCount: 500,
      streaming: true,
    });
    // Summary only: the requests block is aiperf's own, labelled as such.
    expect(v2.result.requests).toMatchObject({ source: "aiperf-summary", count: 500 });
    expect(v2.result.requests!.ttftMs!.p99).toBeCloseTo(gen.summary.time_to_first_token.p99, 9);
    await v2.handle.close();
  });

  it("fails the comparison when one record is changed", async () => {
    const gen = await generateAiperfRun(path.join(dir, "c"), { records: 200, concurrency: 2, seed: 5 });
    const lines = fs.readFileSync(gen.jsonlPath, "utf8").split("\n");
    lines[10] = lines[10].replace(
      /"time_to_first_token":\{"value":[0-9.]+/,
      '"time_to_first_token":{"value":5000',
    );
    fs.writeFileSync(gen.jsonlPath, lines.join("\n"));
    const { result, handle } = await analyze(generatedFiles(gen));
    expect(
      result.warnings!.some((w) => w.startsWith("aiperf summary disagrees:") && w.includes("TTFT")),
    ).toBe(true);
    await handle.close();
  });
});

describe("GPU energy on a generated run", () => {
  it("energy per output token = Σ power × the window's duration / Σ output tokens", async () => {
    const options = { records: 400, concurrency: 4, seed: 11, gpus: 2, csv: false };
    const gen = await generateAiperfRun(path.join(dir, "gpu"), options);
    const { result, handle } = await analyze([
      diskFile(gen.jsonlPath, "profile_export.jsonl", 0),
      diskFile(gen.gpuPath, "gpu_telemetry_export.jsonl", 1),
    ]);
    const gpu = gpuPayloadSchema.parse(result.charts!["aiperf-gpu"]);
    expect(gpu.gpus).toHaveLength(2);
    // Constant 100 W + 200 W integrated over the exact window (first request start → last
    // response), the samples around each edge interpolated: not only the whole seconds inside.
    const seconds = gen.durationS;
    expect(gpu.energyJ).toBeCloseTo(300 * seconds, 6);
    expect(gpu.outputTokens).toBe(gen.totalOsl);
    expect(gpu.energyPerOutputTokenJ).toBeCloseTo((300 * seconds) / gen.totalOsl, 9);
    expect(gpu.gpus[1].points.every((p) => p.powerW === 200)).toBe(true);
    await handle.close();
  });
});
