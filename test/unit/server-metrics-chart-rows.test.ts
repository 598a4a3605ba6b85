import { describe, expect, it } from "vitest";
import { endpointBarRows, hasField, seriesChart, timeRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmEndpointDetail, SmSeriesPayload } from "@/lib/api/server-metrics-charts";

const row = (endpoint: string, role: SmEndpointDetail["role"], hitRate: number | null) =>
  ({ endpoint, role, hitRate, kvCapacityTokens: null }) as unknown as SmEndpointDetail;

describe("server-metrics chart rows", () => {
  it("bars: endpoints with the metric, prefill before decode", () => {
    const rows = [row("d:1", "decode", 0), row("p:1", "prefill", 0.9), row("fe:1", "frontend", null)];
    expect(endpointBarRows(rows, "hitRate")).toEqual([
      { endpoint: "p:1", role: "prefill", value: 0.9 },
      { endpoint: "d:1", role: "decode", value: 0 },
    ]);
  });

  it("picker choice → chart key, unknown choices fall back to the whole run", () => {
    const payload = {
      rows: [],
      roles: [],
      groups: [
        { id: "all", label: "All", chartKey: "sm-series-all" },
        { id: "p:1", label: "p:1", chartKey: "sm-series-ep-0" },
      ],
    };
    expect(seriesChart(payload, "p:1")?.key).toBe("sm-series-ep-0");
    expect(seriesChart(payload, "gone:1")?.key).toBe("sm-series-all");
  });

  it("time rows scale values and keep gaps as null", () => {
    const s = {
      points: [
        { t: 0, hitRate: 0.5, kvUsage: null },
        { t: 1, hitRate: null, kvUsage: 0.2 },
      ],
    } as unknown as SmSeriesPayload;
    expect(timeRows(s, ["hitRate"], 100)).toEqual([
      { t: 0, hitRate: 50 },
      { t: 1, hitRate: null },
    ]);
    expect(hasField(s, "kvUsage")).toBe(true);
    expect(hasField(s, "running")).toBe(false);
  });
});
