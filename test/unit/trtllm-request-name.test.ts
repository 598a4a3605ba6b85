import { describe, expect, it } from "vitest";
import { trtllmRequestName, trtllmRequestTitle } from "@/lib/metrics/trtllm-request-name";
import { requestBarRows } from "@/lib/metrics/trtllm-chart-rows";

describe("trtllmRequestName", () => {
  it("names a request by its own ids, never by its position in the run", () => {
    const agg = { idx: 182, requestId: "1182" };
    expect(trtllmRequestName(agg)).toBe("request id 1182");
    expect(trtllmRequestTitle(agg)).toBe("request id 1182");
    const disagg = { idx: 182, requestId: "33", ctxRequestId: "57", disaggRequestId: "1182" };
    expect(trtllmRequestName(disagg)).toBe("disagg request id 1182");
    expect(trtllmRequestTitle(disagg)).toBe("disagg request id 1182 · request id 33 · ctx request id 57");
    for (const s of [trtllmRequestName(disagg), trtllmRequestTitle(disagg)])
      expect(s).not.toMatch(/\b18[23]\b/);
    // In words, as the drill-down's facts name the ids: no record field on screen (issue 29).
    for (const s of [agg, disagg].flatMap((r) => [trtllmRequestName(r), trtllmRequestTitle(r)]))
      expect(s).not.toMatch(/[a-z]_[a-z]/);
  });

  it("numbers a request without an id by its 1-based position, the same in every place", () => {
    const bare = { idx: 182, requestId: null, disaggRequestId: null, ctxRequestId: null };
    expect(trtllmRequestName(bare)).toBe("request 183 (no id recorded)");
    expect(trtllmRequestTitle(bare)).toBe("request 183 (no id recorded)");
    const sample = { mode: "aggregated" as const, total: 300, segmentNames: [], requests: [] };
    const rows = requestBarRows({
      ...sample,
      requests: [
        { idx: 182, requestId: null, disaggRequestId: null, arrivalMs: 0, ttftMs: 1, e2eMs: 2, segments: [] },
        { idx: 7, requestId: "33", disaggRequestId: "1182", arrivalMs: 0, ttftMs: 1, e2eMs: 2, segments: [] },
      ],
    });
    expect(rows.map((r) => r.label)).toEqual(["request 183 (no id recorded)", "disagg request id 1182"]);
  });
});
