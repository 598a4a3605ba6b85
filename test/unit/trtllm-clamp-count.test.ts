// The clock-skew clamp (docs/metrics.md §Clock skew) is counted per segment, so a breakdown says
// how many of a segment's values it set to 0. Sample: a generated disaggregated run
// (tensorrt_llm/serve/perf_metrics.py shapes) whose disagg-server clock runs 1 ms ahead of the
// ctx servers' on every other request.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TRTLLM_CHARTS, upgradeStoredPayload } from "@/lib/api/chart-catalog";
import { segmentsPayloadSchema } from "@/lib/api/trtllm-charts";
import { segmentStatRows } from "@/lib/metrics/trtllm-chart-rows";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { analyzeTrtllm, trtllmDiskFile } from "../generators/trtllm-ingest";

const N = 10;

async function skewedRun() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-skew-"));
  // sigma 0: disagg_preprocessing is exactly 0.5 ms on every request before the skew.
  const gen = generateTrtllmRun({
    dir,
    mode: "disaggregated",
    requests: N,
    seed: 2,
    sigma: 0,
    mediansMs: { disagg_preprocessing: 0.5 },
  });
  const disagg = gen.files.find((f) => path.basename(f).includes("disagg"))!;
  const lines = fs.readFileSync(disagg, "utf8").trim().split("\n");
  const skewed = lines.map((l, i) => {
    const rec = JSON.parse(l) as Record<string, number>;
    if (i % 2 === 1) rec.disagg_server_arrival_time += 0.001;
    return JSON.stringify(rec);
  });
  fs.writeFileSync(disagg, skewed.join("\n") + "\n");
  return analyzeTrtllm(gen.files.map((f, i) => trtllmDiskFile(f, i)));
}

describe("clock-skew clamp count", () => {
  it("counts, per segment, the values the clamp set to 0", async () => {
    const r = await skewedRun();
    const payload = segmentsPayloadSchema.parse(r.result.charts![TRTLLM_CHARTS.segments.key]);
    const pre = payload.segments.find((s) => s.name === "disagg_preprocessing")!;
    // Five values of 0.5 ms, five of −0.5 ms clamped to 0: all recorded, mean halved.
    expect(pre.clamped).toBe(N / 2);
    expect(pre.count).toBe(N);
    expect(pre.excluded).toBe(0);
    expect(pre.meanMs!).toBeCloseTo(0.25, 6);
    for (const s of payload.segments)
      if (s.name !== "disagg_preprocessing") expect(s.clamped, s.name).toBe(0);
    const row = segmentStatRows(payload, "p50").find((x) => x.name === "disagg_preprocessing")!;
    expect(row.clamped).toBe(N / 2);
  });

  it("a segments payload stored before the count was kept is recomputed, never read as 0 clamped", () => {
    const old = {
      mode: "aggregated",
      requestCount: 1,
      segments: [
        {
          name: "decode",
          label: "d",
          count: 1,
          notRecorded: 0,
          excluded: 0,
          ...{ meanMs: 1, p50Ms: 1, p75Ms: 1, p90Ms: 1, p99Ms: 1 },
        },
      ],
    };
    expect(segmentsPayloadSchema.safeParse(old).success).toBe(false);
    const read = upgradeStoredPayload(TRTLLM_CHARTS.segments, old, 1);
    expect(read).toEqual({ recompute: expect.stringContaining("clamped counts") });
    const kept = { ...old, segments: old.segments.map((x) => ({ ...x, clamped: 2 })) };
    const upgraded = upgradeStoredPayload(TRTLLM_CHARTS.segments, kept, 1);
    expect("payload" in upgraded && segmentStatRows(upgraded.payload, "p50")[0].clamped).toBe(2);
  });
});
