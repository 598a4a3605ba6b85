/** A chart's CSV is named for its run and keeps number columns numeric (review of 3 Dec 2026, item 20). */
import { describe, expect, it } from "vitest";
import { csvHeader, exportFileName, toCsv } from "@/components/charts/export";
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

  it("names columns as a CSV reader expects, never by Runlens's own camelCase keys", () => {
    const csv = toCsv([
      { tS: 0.5, requestsPerS: 2, ttftMs: 41.2, e2eMs: 900, requestId: "a", fromGBps: 1.5 },
    ]);
    expect(csv.split("\r\n")[0]).toBe("t_s,requests_per_s,ttft_ms,e2e_ms,request_id,from_gbps");
    // Names already in words, snake case or a statistic stay as they are.
    for (const kept of ["hit rate %", "gen_queue", "p50", "x_request_id", "TTFT", "model s", "concurrency"])
      expect(csvHeader(kept)).toBe(kept);
    expect(csvHeader("inFlightAvg")).toBe("in_flight_avg");
  });
});
