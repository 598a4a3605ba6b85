/**
 * One definition per metric (lib/api/metric-catalog.ts): every metric the compare table, the
 * series page and the gate show resolves through the catalog with its name, unit and direction,
 * and the "p99" of a higher-is-better metric is its worst 1% wherever it is shown.
 */
import { describe, expect, it } from "vitest";
import { COMPARE_STATS } from "@/lib/api/compare-schemas";
import type { RunSummary } from "@/lib/api/schemas";
import { METRIC_IDS, METRICS, metricDef, readStat, statLabel, tailOf } from "@/lib/api/metric-catalog";
import { runMetrics } from "@/lib/metrics/compare";
import { perUserStatLabel } from "@/lib/metrics/derived-throughput";
import {
  ALL_VERDICT_METRICS,
  KV_USAGE_PEAK,
  parseFailOn,
  seriesMetric,
} from "@/lib/metrics/regression/catalog";
import { TURN_COMPARE_METRICS } from "@/lib/metrics/turn-chart-rows";
import { stats, summary } from "./compare-helpers";

/** A run whose derived figures and breakdown segment are present, so every row kind is checked. */
const fullRun = (id: string) =>
  summary(id, {
    timeBreakdown: {
      latency: { ttftMs: stats(10), e2eMs: stats(100), tpotMs: stats(5) },
      segments: [
        { name: "ctx_queue", label: "Queue before context", meanMs: 1, p50Ms: 1, p90Ms: 2, p99Ms: 3 },
      ],
      kvCacheHitRate: 0.5,
      kvTransfer: { count: 3, bytes: null, bandwidthGBps: stats(20) },
    } as unknown as RunSummary["timeBreakdown"],
  });

describe("metric catalog", () => {
  it("names every metric once, with a unit and a direction", () => {
    expect(new Set(METRIC_IDS.map((id) => METRICS[id].label)).size).toBe(METRIC_IDS.length);
    for (const id of METRIC_IDS) {
      const m = METRICS[id];
      expect(m.id).toBe(id);
      expect(m.label.length).toBeGreaterThan(0);
      expect(m.short.length).toBeLessThanOrEqual(m.label.length);
      expect(m.unit.length).toBeGreaterThan(0);
      expect(["lower", "higher", "neutral"]).toContain(m.direction);
    }
    expect(metricDef("toString")).toBeUndefined();
    expect(metricDef("ttft")).toBe(METRICS.ttft);
  });

  it("reads the worst tail: p99 of a latency, p1 of a rate", () => {
    expect(tailOf(METRICS.ttft, "p99")).toBe("p99");
    expect(tailOf(METRICS.tokPerUser, "p99")).toBe("p1");
    expect(tailOf(METRICS.tokPerUser, "p90")).toBe("p10");
    expect(tailOf(METRICS.tokPerUser, "p50")).toBe("p50");
    expect(tailOf(METRICS.tokPerUser, "mean")).toBe("mean");
    expect(tailOf(METRICS.kvUsageMax, "p99")).toBe("p99");
    expect(statLabel(METRICS.kvTransferBandwidth, "p99")).toBe("worst 1% (p1)");
    expect(statLabel(METRICS.e2e, "p99")).toBe("p99");
    // The high tail of a rate is never shown under the worst tail's name.
    expect(readStat(METRICS.kvTransferBandwidth, { p99: 40, p50: 20 }, "p99")).toBeNull();
    expect(readStat(METRICS.kvTransferBandwidth, { p1: 3, p99: 40 }, "p99")).toBe(3);
    expect(readStat(METRICS.ttft, { p99: 40 }, "p99")).toBe(40);
  });

  it("every compare row resolves through the catalog, at every statistic", () => {
    for (const stat of COMPARE_STATS) {
      const rows = runMetrics(fullRun("a"), stat);
      expect(rows.length).toBeGreaterThan(10);
      for (const row of rows) {
        const id = row.key.startsWith("segment:") ? "segment" : row.key;
        const m = metricDef(id);
        expect(m, row.key).toBeDefined();
        expect(row.unit).toBe(m!.unit);
        expect(row.direction).toBe(m!.direction);
        expect(row.group).toBe(m!.group);
        // A distribution row says its statistic the catalog's way: never "p99" of a rate.
        if (row.label !== row.name) expect(row.label).toBe(`${row.name} ${statLabel(m!, stat)}`);
        if (m!.direction === "higher" && (stat === "p99" || stat === "p90"))
          expect(row.label).not.toMatch(new RegExp(`\\b${stat}\\b(?! \\()`));
      }
    }
  });

  it("the per-user tail is named by the catalog on every page that shows it", () => {
    expect(perUserStatLabel("p99")).toBe("worst 1% (p1)");
    expect(perUserStatLabel("p90")).toBe("worst 10% (p10)");
    const row = runMetrics(fullRun("a"), "p99").find((r) => r.key === "tokPerUser")!;
    expect(row.label).toBe("Tok/s per user worst 1% (p1)");
  });

  it("every verdict, gate and series metric takes name, unit and direction from the catalog", () => {
    for (const v of ALL_VERDICT_METRICS) {
      const m = METRICS[v.compareKey];
      expect(v.unit).toBe(m.unit);
      expect(v.direction).toBe(m.direction);
      expect(v.label).toBe(v.stat ? `${m.label} ${statLabel(m, v.stat)}` : m.label);
      // A gate rule must point the way the catalog says the metric gets worse.
      const worse = m.direction === "lower" ? ">" : "<";
      const better = m.direction === "lower" ? "<" : ">";
      expect(parseFailOn(`${v.id}${worse}5%`)[0].metric).toBe(v.id);
      expect(() => parseFailOn(`${v.id}${better}5%`)).toThrow(/gets worse/);
    }
    expect(KV_USAGE_PEAK.label).toBe(METRICS.kvUsageMax.label);
    for (const id of ["ttft.p99", "itl.p50", "e2e.p90", "server_ttft.p99", "throughput", "cache_hit_rate"]) {
      const s = seriesMetric(id)!;
      expect(s.label).toContain(METRICS[s.compareKey].label);
      expect(s.unit).toBe(METRICS[s.compareKey].unit);
    }
  });

  it("the per-turn overlay's latencies are the catalog's", () => {
    expect(TURN_COMPARE_METRICS.ttftP90).toEqual({ label: "TTFT p90", unit: "ms", direction: "lower" });
    expect(TURN_COMPARE_METRICS.e2eP50.label).toBe(`${METRICS.e2e.label} p50`);
  });
});
