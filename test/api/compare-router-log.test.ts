/**
 * Predicted vs delivered across compared runs (docs/metrics.md §Predicted vs delivered across
 * runs): two runs with the Dynamo frontend's log and the engines' scrapes, written by
 * test/generators/dynamo-router-log.mjs and dynamo-router-scrapes.mjs (the lines and counters as
 * ai-dynamo/dynamo and vLLM write them), and one with scrapes only.
 */
import { describe, expect, it } from "vitest";
import { GET as compare } from "@/app/api/compare/route";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { compareResponseSchema } from "@/lib/api/compare-schemas";
import { routerLogPayloadSchema, type RouterLogPayload } from "@/lib/api/router-log";
import {
  compareRouterLogDeltas,
  compareRouterLogRow,
  routerLogLinePoints,
} from "@/lib/metrics/compare-router-log";
import { dynamoRouterRun, toJsonl } from "../generators/dynamo-router-scrapes.mjs";
import { routerLog } from "../generators/dynamo-router-log.mjs";
import { freshAppEachTest, uploadRun } from "../helpers/test-app";
import { ROUTER_LOG_CHART } from "@/lib/api/chart-catalog";

freshAppEachTest();

type Opts = Parameters<typeof dynamoRouterRun>[0];

/** One generated run uploaded, with what its figures must be, summed from the generator's truth. */
async function upload(name: string, opts: Opts, withLog = true) {
  const { run, truth } = dynamoRouterRun(opts);
  const files = [{ name: "server_metrics_export.jsonl", content: toJsonl(run) }];
  if (withLog) files.push({ name: "frontend.log", content: routerLog(truth.decisions) });
  const id = await uploadRun(files, { name });
  const overlap = truth.decisions.reduce((s, d) => s + d.overlap, 0);
  const blocks = truth.decisions.reduce((s, d) => s + d.blocks, 0);
  const hits = truth.perWorker.reduce((s, w) => s + w.hits, 0);
  const queries = truth.perWorker.reduce((s, w) => s + w.queries, 0);
  return {
    id,
    decisions: truth.decisions.length,
    predictedPct: (100 * overlap) / blocks,
    deliveredPct: (100 * hits) / queries,
  };
}

async function payloadOf(id: string): Promise<RouterLogPayload> {
  const res = await getChart(new Request(`http://localhost/api/runs/${id}/charts/${ROUTER_LOG_CHART.key}`), {
    params: Promise.resolve({ id, key: ROUTER_LOG_CHART.key }),
  });
  expect(res.status).toBe(200);
  return routerLogPayloadSchema.parse(await res.json());
}

describe("router log across compared runs", () => {
  it("gives each run's predicted, delivered and gap from its own log and counters, and the deltas against the baseline", async () => {
    const a = await upload("worker-1 half short", { seconds: 30, seed: 5 });
    const b = await upload("both a quarter short", {
      seconds: 30,
      seed: 11,
      workers: [
        { url: "http://worker-0:9090/metrics", shortfall: 0.25 },
        { url: "http://worker-1:9090/metrics", shortfall: 0.25 },
      ],
    });
    const c = await upload("no log", { seconds: 30, seed: 5 }, false);
    const res = await compare(
      new Request(`http://localhost/api/compare?runs=${a.id},${b.id},${c.id}&baseline=${a.id}`),
    );
    expect(res.status).toBe(200);
    const body = compareResponseSchema.parse(await res.json());
    expect(body.chartKeys[a.id]).toContain(ROUTER_LOG_CHART.key);
    expect(body.chartKeys[b.id]).toContain(ROUTER_LOG_CHART.key);
    // The run without a log has no payload to draw: the page names it, it is never a 0.
    expect(body.chartKeys[c.id]).not.toContain(ROUTER_LOG_CHART.key);

    const rows = [
      compareRouterLogRow(a.id, await payloadOf(a.id)),
      compareRouterLogRow(b.id, await payloadOf(b.id)),
    ];
    for (const [row, want] of [
      [rows[0], a],
      [rows[1], b],
    ] as const) {
      expect(row.decisions).toBe(want.decisions);
      expect(row.predictedPct).toBeCloseTo(want.predictedPct, 9);
      expect(row.deliveredPct).toBeCloseTo(want.deliveredPct, 9);
      expect(row.gapPoints).toBeCloseTo(want.deliveredPct - want.predictedPct, 9);
    }
    // The engines fall short of the prediction in both runs, by the shortfalls the generator set.
    expect(rows[0].gapPoints!).toBeLessThan(0);
    expect(rows[1].gapPoints!).toBeLessThan(0);

    const deltas = compareRouterLogDeltas(rows, a.id);
    expect(deltas[a.id]).toEqual({ predictedPct: null, deliveredPct: null, gapPoints: null });
    expect(deltas[b.id].predictedPct).toBeCloseTo(b.predictedPct - a.predictedPct, 9);
    expect(deltas[b.id].deliveredPct).toBeCloseTo(b.deliveredPct - a.deliveredPct, 9);
    expect(deltas[b.id].gapPoints).toBeCloseTo(
      b.deliveredPct - b.predictedPct - (a.deliveredPct - a.predictedPct),
      9,
    );
  });
});

describe("the figures of the comparison", () => {
  const payload = (
    predicted: number | null,
    delivered: number | null,
    points: RouterLogPayload["points"] = [],
  ) =>
    ({
      decisions: 10,
      predicted,
      delivered,
      gapPoints: predicted === null || delivered === null ? null : (delivered - predicted) * 100,
      points,
    }) as RouterLogPayload;

  it("takes deltas in points, with none on the baseline or where a side is missing", () => {
    // Baseline 62.5 % predicted, 50 % delivered (gap −12.5 pt); the other 40 % and 35 % (gap −5 pt).
    const rows = [
      compareRouterLogRow("base", payload(0.625, 0.5)),
      compareRouterLogRow("other", payload(0.4, 0.35)),
      compareRouterLogRow("no-engines", payload(0.7, null)),
    ];
    const d = compareRouterLogDeltas(rows, "base");
    expect(d.other.predictedPct).toBeCloseTo(-22.5, 12);
    expect(d.other.deliveredPct).toBeCloseTo(-15, 12);
    expect(d.other.gapPoints).toBeCloseTo(7.5, 12);
    expect(d["no-engines"]).toEqual({
      predictedPct: expect.closeTo(7.5, 12),
      deliveredPct: null,
      gapPoints: null,
    });
  });

  it("draws the gap only where an interval has both sides", () => {
    const p = payload(0.5, 0.4, [
      { t: 0, predicted: 0.5, delivered: 0.4, requests: 2 },
      { t: 1, predicted: null, delivered: 0.55, requests: 0 },
    ]);
    expect(routerLogLinePoints(p)).toEqual([
      { t: 0, predicted: 50, delivered: 40, gap: expect.closeTo(-10, 12) },
      { t: 1, predicted: null, delivered: expect.closeTo(55, 12), gap: null },
    ]);
  });
});
