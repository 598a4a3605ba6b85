import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agreementPayloadSchema } from "@/lib/api/aiperf-charts";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import { recordsSample } from "@/lib/metrics/aiperf-agreement";
import { AIPERF_FIXTURES, analyze, diskFile, fixtureFile } from "./aiperf-helpers";

/**
 * Records that hold fewer requests than aiperf's summary counts are a sample, not a
 * disagreement. aiperf writes `request_count` (successful profiling requests) and
 * `error_request_count` into profile_export_aiperf.json (aiperf's metrics/types
 * request_count_metric.py and error_request_count.py); the records file holds one line per
 * request, errors included.
 */
const REAL = path.resolve(__dirname, "../fixtures/aiperf-real-c4");
const realSummary = () =>
  parseSummaryJson(JSON.parse(fs.readFileSync(path.join(REAL, "profile_export_aiperf.json"), "utf8")))!;

describe("the records-sample rule", () => {
  it("the real c4 summary describes 198 successful + 2 error = 200 requests", async () => {
    const { result, handle } = await analyze([diskFile(path.join(REAL, "profile_export.jsonl"))]);
    const block = result.requests!;
    expect(block.count).toBe(200);
    // All 200 records: complete, so not a sample.
    expect(recordsSample(block, realSummary())).toBeNull();
    // 199 of 200 (one record lost): a sample of 199 of 198 + 2.
    expect(recordsSample({ ...block, count: 199 }, realSummary())).toEqual({ records: 199, described: 200 });
    // More records than the summary counts is no sample: the files describe different runs.
    expect(recordsSample({ ...block, count: 201 }, realSummary())).toBeNull();
    await handle.close();
  });

  it("a summary without request_count gives no sample", async () => {
    const summary = realSummary();
    delete summary.metrics.request_count;
    const { result, handle } = await analyze([fixtureFile("qwen-c4__profile_export.jsonl")]);
    expect(recordsSample(result.requests!, summary)).toBeNull();
    await handle.close();
  });
});

describe("agreement on the qwen sweep (10 records of 64 requests)", () => {
  for (const c of ["c1", "c2", "c4"]) {
    it(`qwen-${c}: a sample of 10 of 64, no disagreement and no warning`, async () => {
      const { result, handle } = await analyze([
        fixtureFile(`qwen-${c}__profile_export_aiperf.json`, 0),
        fixtureFile(`qwen-${c}__profile_export.jsonl`, 1),
      ]);
      expect(result.warnings!.filter((w) => w.startsWith("aiperf summary disagrees:"))).toEqual([]);
      const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
      expect(agreement.sample).toMatchObject({ records: 10, described: 64 });
      expect(agreement.disagreements).toBe(0);
      expect(agreement.rows.every((r) => r.sample)).toBe(true);
      // aiperf's own figures for all 64 travel with the note, for the view to show as "summary".
      const ttft = agreement.sample!.summary!.ttftMs!;
      expect(ttft.count).toBe(64);
      const summary = JSON.parse(
        fs.readFileSync(path.join(AIPERF_FIXTURES, `qwen-${c}__profile_export_aiperf.json`), "utf8"),
      );
      expect(ttft.p99).toBe(summary.time_to_first_token.p99);
      expect(agreement.sample!.summary!.outputTokens!.mean).toBe(summary.output_sequence_length.avg);
      await handle.close();
    });
  }
});

describe("a real disagreement: every request present, one value changed", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiperf-sample-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("flags TTFT when the first record's TTFT is changed from 67.8057 ms to 5,000 ms", async () => {
    const lines = fs.readFileSync(path.join(REAL, "profile_export.jsonl"), "utf8").split("\n");
    expect(lines[0]).toContain('"time_to_first_token":{"value":67.80570399999999');
    lines[0] = lines[0].replace(
      '"time_to_first_token":{"value":67.80570399999999',
      '"time_to_first_token":{"value":5000',
    );
    fs.writeFileSync(path.join(dir, "profile_export.jsonl"), lines.join("\n"));
    const { result, handle } = await analyze([
      diskFile(path.join(dir, "profile_export.jsonl"), "profile_export.jsonl", 0),
      diskFile(path.join(REAL, "profile_export_aiperf.json"), "profile_export_aiperf.json", 1),
    ]);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    expect(agreement.sample).toBeNull();
    const bad = agreement.rows.filter((r) => !r.agrees);
    expect(bad.every((r) => r.metric === "TTFT (ms)")).toBe(true);
    // The mean moves by (5000 − 67.8057) / 198 = 24.91 ms; the max becomes 5,000 ms.
    expect(bad.map((r) => r.stat)).toEqual(expect.arrayContaining(["mean", "max"]));
    expect(agreement.disagreements).toBe(bad.length);
    expect(result.warnings!.filter((w) => w.startsWith("aiperf summary disagrees:"))).toHaveLength(1);
    await handle.close();
  });
});
