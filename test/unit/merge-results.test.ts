import { describe, expect, it } from "vitest";
import { mergeEndpoints, mergeResults } from "@/lib/ingest/merge-results";

describe("merging analyzer results", () => {
  it("joins endpoint rows by key: first known value wins, a specific role beats combined", () => {
    const rows = mergeEndpoints([
      { endpoints: [{ endpoint: "ctx0:8001", role: "prefill", requestCount: 10, kvCacheHitRate: 0.5 }] },
      {
        endpoints: [
          { endpoint: "ctx0:8001", role: "combined", cacheHitRate: 0.6, requestCount: 99 },
          { endpoint: "gen0:8002", role: "decode" },
        ],
      },
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      endpoint: "ctx0:8001",
      role: "prefill",
      requestCount: 10,
      kvCacheHitRate: 0.5,
      cacheHitRate: 0.6,
    });
    expect(rows[1]).toMatchObject({ endpoint: "gen0:8002", role: "decode", cacheHitRate: null });
  });
  it("a collector is on if any source says so, off only when known off", () => {
    const m = mergeResults([
      { collectors: { returnPerfMetrics: false } },
      { collectors: { returnPerfMetrics: true, publishKvEvents: false } },
    ]);
    expect(m.collectors).toEqual({
      returnPerfMetrics: true,
      enableIterPerfStats: null,
      publishKvEvents: false,
    });
    expect(m.requests).toBeNull();
  });
});
