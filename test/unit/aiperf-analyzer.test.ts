import { describe, expect, it } from "vitest";
import { agreementPayloadSchema, errorsPayloadSchema, gpuPayloadSchema } from "@/lib/api/aiperf-charts";
import { analyze, fixtureFile } from "./aiperf-helpers";
import { storedAiperfRows } from "../helpers/aiperf-request-rows";
import { GPU_OUTSIDE_WINDOW } from "@/lib/metrics/aiperf-run-result";

describe("aiperf analyzer on the qwen-c4 artifacts", () => {
  it("computes the requests block from the 10 profiling records (numpy-checked numbers)", async () => {
    const { result, reports, handle } = await analyze([fixtureFile("qwen-c4__profile_export.jsonl")]);
    expect(reports[0]).toMatchObject({ records: 10, skipped: 0 });
    const r = result.requests!;
    expect(r).toMatchObject({
      source: "aiperf",
      count: 10,
      errorCount: 0,
      // No warm-up records and no summary to say whether aiperf warmed up: unknown, not 0.
      warmupCount: null,
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

    const rows = (await storedAiperfRows(handle.db, "r1")).sort((a, b) => a.start_ms! - b.start_ms!);
    expect(rows).toHaveLength(10);
    expect(rows[0].start_ms).toBe(0);
    expect(rows.every((row) => row.run_id === "r1" && typeof row.request_id === "string")).toBe(true);
    expect(rows.map((row) => row.request_id)).toContain("50878a42-b0be-4408-a8a5-78e5cd7e4180");
    await handle.close();
  });

  it("says the records are a sample of aiperf's summary (10 of 64 requests), not a disagreement", async () => {
    const { result, handle } = await analyze([
      fixtureFile("qwen-c4__profile_export.jsonl", 0),
      fixtureFile("qwen-c4__profile_export_aiperf.json", 1),
      fixtureFile("qwen-c4__gpu_telemetry_export.jsonl", 2),
    ]);
    expect(result.warnings!.some((w) => w.startsWith("aiperf summary disagrees:"))).toBe(false);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    const reqRow = agreement.rows.find((r) => r.metric === "Requests (successful)")!;
    expect(reqRow).toMatchObject({ ours: 10, aiperf: 64, agrees: false, sample: true });
    expect(agreement).toMatchObject({ disagreements: 0, sample: { records: 10, described: 64 } });
    expect(result.info).toMatchObject({
      model: "Qwen/Qwen3-0.6B",
      endpointType: "chat",
      streaming: true,
      concurrency: 4,
      requestCount: 64,
    });
    const gpu = gpuPayloadSchema.parse(result.charts!["aiperf-gpu"]);
    expect(gpu.gpus.length).toBe(2);
    // One GPU (one uuid) scraped through :9400 and :9402: two series, one GPU.
    expect(gpu).toMatchObject({ duplicateGpus: 1, distinctGpus: 1 });
    // Its samples end at …938.79 s, before the first request starts at …940.06 s.
    expect(gpu.overlapsWindow).toBe(false);
    expect(result.warnings).toContain(GPU_OUTSIDE_WINDOW);
    errorsPayloadSchema.parse(result.charts!["aiperf-errors"]);
    await handle.close();
  });
});

describe("aiperf analyzer on every sample", () => {
  for (const c of ["c1", "c2", "c4"]) {
    it(`qwen-${c}: the 10-record JSONL is a sample of the 64-request summary`, async () => {
      const { result, handle } = await analyze([
        fixtureFile(`qwen-${c}__profile_export_aiperf.json`, 0),
        fixtureFile(`qwen-${c}__profile_export.jsonl`, 1),
      ]);
      // The run's figures are aiperf's summary's (64 requests); the records are said to be a sample.
      expect(result.requests).toMatchObject({
        count: 64,
        source: "aiperf",
        recordsSample: { records: 10, described: 64 },
      });
      expect(result.warnings!.filter((x) => x.startsWith("aiperf summary disagrees:"))).toEqual([]);
      const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
      expect(agreement.sample).toMatchObject({ records: 10, described: 64 });
      expect(result.info!.concurrency).toBe(Number(c.slice(1)));
      await handle.close();
    });
  }

  it("req-accounting: warmup and error records are counted, not measured; aiperf agrees", async () => {
    const { result, handle } = await analyze([
      fixtureFile("req-accounting/profile_export.jsonl", 0, "profile_export.jsonl"),
      // Hand-made summary of bare numbers (no units): the detector leaves it unknown, so name its kind here.
      {
        ...fixtureFile("req-accounting/profile_export_aiperf.json", 1, "profile_export_aiperf.json"),
        kind: "aiperf-summary",
        format: "json",
      },
    ]);
    const r = result.requests!;
    expect(r).toMatchObject({ count: 2, errorCount: 1, warmupCount: 1 });
    expect(r.e2eMs).toMatchObject({ count: 1, mean: 1000 });
    expect(r.durationS).toBe(3);
    expect(result.warnings!.filter((x) => x.startsWith("aiperf summary disagrees:"))).toEqual([]);
    const errors = result.charts!["aiperf-errors"] as {
      groups: Array<{ type: string; count: number; examples: string[] }>;
    };
    expect(errors.groups).toEqual([
      expect.objectContaining({ type: "HTTPStatusError", count: 1, examples: ["500 server error"] }),
    ]);
    await handle.close();
  });

  it("doc error record: a cancelled request is an error and a cancellation", async () => {
    const { result, handle } = await analyze([fixtureFile("doc-error-record__profile_export.jsonl")]);
    expect(result.requests).toMatchObject({ count: 1, errorCount: 1, cancelledCount: 1, ttftMs: null });
    await handle.close();
  });

  it("real 0.10 summary alone (JSON then CSV): header facts and aiperf's own numbers", async () => {
    const { result, reports, handle } = await analyze([
      fixtureFile("real-v0.10__profile_export_aiperf.json", 0),
      fixtureFile("real-v0.10__profile_export_aiperf.csv", 1),
    ]);
    expect(reports[1].records).toBeGreaterThan(30);
    expect(result.info).toMatchObject({
      aiperfVersion: "0.10.0",
      schemaVersion: "1.3",
      concurrency: 16,
      model: "qwen3.6-nvfp4",
    });
    expect(result.requests).toMatchObject({ source: "aiperf-summary", count: 96 });
    expect(result.requests!.e2eMs!.p99).toBe(18625.4480323);
    expect(result.charts!["aiperf-agreement"]).toBeUndefined();
    await handle.close();
  });

  it("inputs.json is accepted and counted", async () => {
    const { reports, handle } = await analyze([fixtureFile("canary_reference_inputs.json")]);
    expect(reports[0].records).toBeGreaterThan(0);
    await handle.close();
  });
});

describe("pairing summary and records", () => {
  it("compares a lone summary with lone records even when they sit in different folders", async () => {
    const { result, handle } = await analyze([
      fixtureFile("qwen-c2__profile_export.jsonl", 0, "records/profile_export.jsonl"),
      fixtureFile("qwen-c2__profile_export_aiperf.json", 1, "summary/profile_export_aiperf.json"),
    ]);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    expect(agreement.sources).toEqual(["summary/profile_export_aiperf.json"]);
    expect(agreement.sample).toMatchObject({ records: 10, described: 64 });
    await handle.close();
  });
});
