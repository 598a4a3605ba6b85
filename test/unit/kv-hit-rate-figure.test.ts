/**
 * The Breakdown's KV-cache hit rate figure of a disaggregated run: a decode worker has no context
 * phase, so no hit rate; its row says so beside its name ("n/a (decode)") on
 * both renderers, rather than an empty slot with no bar and no word.
 */
import { describe, expect, it } from "vitest";
import { notedCategories } from "@/lib/api/figure";
import type { KvHitRatePayload } from "@/lib/api/trtllm-charts";
import { kvHitRateFigure } from "@/lib/metrics/figures/breakdown";

const row = (requests: number, reusedBlocks: number, missedBlocks: number) => ({
  requests,
  reusedBlocks,
  missedBlocks,
  hitRate: reusedBlocks + missedBlocks > 0 ? reusedBlocks / (reusedBlocks + missedBlocks) : null,
});

const disagg: KvHitRatePayload = {
  run: 0.25,
  byRole: [
    { role: "prefill", ...row(8, 2, 6) },
    { role: "decode", ...row(8, 0, 0) },
  ],
  byWorker: [
    { worker: "ctx-worker-0.jsonl", role: "prefill", ...row(8, 2, 6) },
    { worker: "gen-worker-0.jsonl", role: "decode", ...row(4, 0, 0) },
    { worker: "gen-worker-1.jsonl", role: "decode", ...row(4, 0, 0) },
  ],
};

describe("KV-cache hit rate by role and worker", () => {
  it("says beside each decode row why it has no bar, and the description says it once", () => {
    const f = kvHitRateFigure(disagg);
    const names = notedCategories(f);
    expect(names).toEqual([
      "all prefill",
      "all decode · n/a (decode)",
      "ctx-worker-0.jsonl",
      "gen-worker-0.jsonl · n/a (decode)",
      "gen-worker-1.jsonl · n/a (decode)",
    ]);
    // Every row is either a bar or a reason: no empty slot.
    const points = f.series[0].points;
    points.forEach(([, v], i) => expect(v !== null || Boolean(f.categoryNotes?.[i])).toBe(true));
    expect(f.description).toContain("decode workers report no context phase");
  });

  it("draws no bar for a decode worker of a disaggregated run whatever its records carry (0 % of 4 lookups)", () => {
    const f = kvHitRateFigure({
      ...disagg,
      byWorker: [disagg.byWorker[0], { worker: "gen-worker-0.jsonl", role: "decode", ...row(4, 0, 4) }],
    });
    expect(f.series[0].points[3]).toEqual([3, null]);
    expect(f.categoryNotes?.[3]).toBe("n/a (decode)");
  });

  it("names a prefill worker that looked nothing up, and adds no note where every row has a bar", () => {
    const f = kvHitRateFigure({
      ...disagg,
      byWorker: [{ worker: "ctx-worker-1.jsonl", role: "prefill", ...row(3, 0, 0) }, disagg.byWorker[0]],
    });
    expect(f.categoryNotes?.[2]).toBe("n/a (0 lookups)");
    const all = kvHitRateFigure({ ...disagg, byRole: [disagg.byRole[0]], byWorker: [disagg.byWorker[0]] });
    expect(all.categoryNotes).toBeUndefined();
    expect(all.description).not.toContain("no context phase");
  });
});
