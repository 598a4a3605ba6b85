import { describe, expect, it } from "vitest";
import { cutMiddle, shortLabels } from "@/lib/metrics/short-labels";

describe("short axis labels for long worker and run names", () => {
  it("keeps what tells worker files apart and drops their common head and tail", () => {
    expect(
      shortLabels([
        "perf_metrics-server-ctx0-100-20260101T000000Z",
        "perf_metrics-server-gen-2-20260101T000000Z",
      ]),
    ).toEqual(["ctx0-100", "gen-2"]);
  });

  it("names a lone worker file whole, without its extension and time stamp, where that fits", () => {
    expect(shortLabels(["perf_metrics-server-gen-2-20260101T000000Z.jsonl"], 28)).toEqual([
      "perf_metrics-server-gen-2",
    ]);
    expect(shortLabels(["worker-7-20251130T101500Z.json.gz"], 24)).toEqual(["worker-7"]);
  });

  it("keeps names that fit whole, common head and all", () => {
    expect(shortLabels(["10.2.0.1:8000", "10.2.0.2:8000"])).toEqual(["10.2.0.1:8000", "10.2.0.2:8000"]);
  });

  it("cuts a lone long name in the middle, to exactly the limit", () => {
    const name = "perf_metrics-disagg-reconstructed.jsonl";
    expect(shortLabels([name], 16)).toEqual(["perf_met…d.jsonl"]);
    expect(cutMiddle(name, 16)).toHaveLength(16);
    expect(cutMiddle("short", 16)).toBe("short");
  });

  it("never makes two different names equal", () => {
    const names = ["run aaaaaaaaaaaaaaaaaaaaaaaa one", "run aaaaaaaaaaaaaaaaaaaaaaaa two"];
    const labels = shortLabels(names, 10);
    expect(new Set(labels).size).toBe(2);
    for (const l of labels) expect(l.length).toBeLessThanOrEqual(10);
  });

  it("falls back to numbered cuts when the cut names collide", () => {
    expect(shortLabels(["abcdefghij1xyz", "abcdefghij2xyz"], 6)).toEqual(["a… #1", "a… #2"]);
  });
});
