/**
 * One synthetic run (test/generators/server-metrics.mjs) written as aiperf's JSON, CSV and
 * JSONL exports: each export alone must give the generator's ground truth (computed from the
 * raw scrapes), so the three parsers agree with each other and with the formula.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SmEndpointsPayload, SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { analyzeFiles } from "./server-metrics-helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-sm-"));
let truth: Record<string, number>;

beforeAll(() => {
  // 6 endpoints (2 prefill, 4 decode; block sizes alternate 32/64), 40 s of 0.5 s scrapes.
  execFileSync(process.execPath, ["test/generators/server-metrics.mjs", dir, "6", "40"]);
  truth = JSON.parse(fs.readFileSync(path.join(dir, "truth.json"), "utf8"));
});

describe.each(["json", "csv", "jsonl"])("server_metrics_export.%s", (ext) => {
  it("gives the ground truth", async () => {
    const r = await analyzeFiles([path.join(dir, `server_metrics_export.${ext}`)]);
    const sm = r.serverMetrics!;
    expect(sm.backend).toBe("trtllm");
    expect(sm.cache.gpuHitRate).toBeCloseTo(truth.hitRate, 10);
    expect(sm.tokens.promptTotal).toBe(truth.prompt);
    expect(sm.tokens.cachedTotal).toBe(truth.cached);
    expect(sm.tokens.generationTotal).toBe(truth.generation);
    expect(sm.kvCache.gpuTotalTokens).toBe(truth.capacity);
    expect(sm.kvOffload.bytesGpuToCpu).toBe(truth.offload);
    // The CSV has 4-decimal rates; the window is total / rate there.
    expect(sm.kvOffload.bandwidthGpuToCpuBytesPerSecond! / truth.offloadPerSecond).toBeCloseTo(1, 6);
    expect(r.endpoints).toHaveLength(6);
  });
});

describe("exports agree beyond the headline", () => {
  it("per-endpoint usage avg agrees to the CSV's 4 decimals", async () => {
    const [json, csv, jsonl] = await Promise.all(
      ["json", "csv", "jsonl"].map((e) => analyzeFiles([path.join(dir, `server_metrics_export.${e}`)])),
    );
    for (let i = 0; i < 6; i++) {
      expect(jsonl.endpoints![i].kvUsageAvg).toBeCloseTo(json.endpoints![i].kvUsageAvg!, 10);
      expect(csv.endpoints![i].kvUsageAvg).toBeCloseTo(json.endpoints![i].kvUsageAvg!, 4);
    }
  });

  it("JSON timeslices and JSONL scrapes give the same per-interval hit rate series", async () => {
    const [json, jsonl] = await Promise.all(
      ["json", "jsonl"].map((e) => analyzeFiles([path.join(dir, `server_metrics_export.${e}`)])),
    );
    const a = json.charts!["sm-series-all"] as SmSeriesPayload;
    const b = jsonl.charts!["sm-series-all"] as SmSeriesPayload;
    expect(a.points.length).toBeGreaterThanOrEqual(40);
    expect(b.points.map((p) => p.hitRate)).toEqual(a.points.map((p) => p.hitRate));
    // Σ per-interval prompt tokens of the prefill side = the window total.
    expect(a.points.reduce((s, p) => s + (p.promptTokens ?? 0), 0)).toBe(truth.prompt);
    const groups = (json.charts!["sm-endpoints"] as SmEndpointsPayload).groups.map((g) => g.id);
    expect(groups.slice(0, 3)).toEqual(["all", "role:prefill", "role:decode"]);
  });

  it("when several exports of the same run are uploaded, only one is counted", async () => {
    const r = await analyzeFiles(
      ["json", "csv", "jsonl"].map((e) => path.join(dir, `server_metrics_export.${e}`)),
    );
    expect(r.serverMetrics!.tokens.promptTotal).toBe(truth.prompt);
    expect(r.warnings!.some((w) => w.includes("not counted"))).toBe(true);
  });
});
