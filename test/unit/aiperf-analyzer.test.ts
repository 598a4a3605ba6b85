import { describe, expect, it } from "vitest";
import {
  agreementPayloadSchema,
  errorsPayloadSchema,
  gpuPayloadSchema,
} from "@/lib/metrics/aiperf-chart-schemas";
import { analyze, fixtureFile } from "./aiperf-helpers";

describe("aiperf analyzer on the qwen-c4 artifacts", () => {
  it("computes the requests block from the 10 profiling records (numpy-checked numbers)", async () => {
    const { result, reports, handle } = await analyze([fixtureFile("qwen-c4__profile_export.jsonl")]);
    expect(reports[0]).toMatchObject({ records: 10, skipped: 0 });
    const r = result.requests!;
    expect(r).toMatchObject({
      source: "aiperf",
      count: 10,
      errorCount: 0,
      warmupCount: 0,
      cancelledCount: 0,
    });
    // Values from numpy.percentile / numpy.mean over the file's records.
    expect(r.ttftMs!.mean).toBeCloseTo(54.59635249999999, 9);
    expect(r.ttftMs!.p50).toBeCloseTo(53.509671, 9);
    expect(r.ttftMs!.p90).toBeCloseTo(70.7293933, 9);
    expect(r.ttftMs!.p99).toBeCloseTo(70.73962603, 9);
    expect(r.e2eMs!.p50).toBeCloseTo(3780.2012885, 7);
    expect(r.e2eMs!.p99).toBeCloseTo(3783.05361234, 7);
    expect(r.itlMs!.mean).toBeCloseTo(18.61925113366834, 9);
    expect(r.itlMs!.p99).toBeCloseTo(18.741305833618092, 9);
    expect(r.inputTokens!.mean).toBe(100);
    expect(r.outputTokens!.mean).toBe(200);
    expect(r.durationS).toBeCloseTo(11.272076517, 9);
    expect(r.requestThroughputPerS).toBeCloseTo(10 / 11.272076517, 9);
    expect(r.outputTokenThroughputPerS).toBeCloseTo(2000 / 11.272076517, 9);
    expect(result.requestCount).toBe(10);

    const rows = await handle.db.selectFrom("aiperf_requests").selectAll().orderBy("start_ms").execute();
    expect(rows).toHaveLength(10);
    expect(rows[0].start_ms).toBe(0);
    expect(rows.every((row) => row.run_id === "r1" && typeof row.request_id === "string")).toBe(true);
    expect(rows.map((row) => row.request_id)).toContain("50878a42-b0be-4408-a8a5-78e5cd7e4180");
    await handle.close();
  });

  it("flags the disagreement with aiperf's summary (10 of 64 records)", async () => {
    const { result, handle } = await analyze([
      fixtureFile("qwen-c4__profile_export.jsonl", 0),
      fixtureFile("qwen-c4__profile_export_aiperf.json", 1),
      fixtureFile("qwen-c4__gpu_telemetry_export.jsonl", 2),
    ]);
    expect(result.warnings!.some((w) => w.startsWith("aiperf summary disagrees:"))).toBe(true);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    const reqRow = agreement.rows.find((r) => r.metric === "Requests (successful)")!;
    expect(reqRow).toMatchObject({ ours: 10, aiperf: 64, agrees: false });
    expect(result.info).toMatchObject({
      model: "Qwen/Qwen3-0.6B",
      endpointType: "chat",
      streaming: true,
      concurrency: 4,
      requestCount: 64,
    });
    const gpu = gpuPayloadSchema.parse(result.charts!["aiperf-gpu"]);
    expect(gpu.gpus.length).toBe(2);
    errorsPayloadSchema.parse(result.charts!["aiperf-errors"]);
    await handle.close();
  });
});
