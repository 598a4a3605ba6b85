/** A chart's CSV is named for its run and keeps number columns numeric (review of 3 Dec 2026, item 20). */
import { describe, expect, it } from "vitest";
import { exportFileName, toCsv } from "@/components/charts/export";
import { NOT_EXPORTED, NOT_RECORDED } from "@/lib/format-number";

describe("chart CSV", () => {
  it("writes a value the run does not have as an empty cell, never as words in a number column", () => {
    const csv = toCsv([
      { request: 1, gen_queue: 12.5, note: "ok" },
      { request: 2, gen_queue: NOT_RECORDED, note: "ok" },
      { request: 3, gen_queue: NOT_EXPORTED, note: null },
      { request: 4, gen_queue: "—", note: undefined },
    ]);
    expect(csv).toBe("request,gen_queue,note\r\n1,12.5,ok\r\n2,,ok\r\n3,,\r\n4,,\r\n");
  });

  it("names the file <run>-<chart>.csv, as the PNG and SVG are named", () => {
    expect(exportFileName("aiperf · Qwen/Qwen3-0.6B · concurrency 4", "latency-histogram", "csv")).toBe(
      "aiperf-qwen-qwen3-0-6b-concurrency-4-latency-histogram.csv",
    );
    expect(exportFileName(undefined, "compare-segments-p50", "csv")).toBe("compare-segments-p50.csv");
  });
});
