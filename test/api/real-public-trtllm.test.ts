/**
 * TensorRT-LLM 1.2.1 disaggregated `/perf_metrics` (real-public/trtllm-1.2.1-disagg-perf-metrics-ddps-lab:
 * 27 records of a ddps-lab run, as tensorrt_llm/serve/perf_metrics.py's
 * DisaggPerfMetricsCollector.get_perf_metrics builds them, and the harness's metadata.json),
 * uploaded through POST /api/runs and read back through the public API. Every expected number is
 * computed here from the records' own stamps and iterations:
 *
 * - TTFT = disagg_server_first_token_time − disagg_server_arrival_time (the span the
 *   time-breakdown tool's segments tile, tensorrt_llm/serve/scripts/time_breakdown/time_breakdown.py);
 * - E2E = TTFT + max(0, gen last_token_time − gen server_first_token_time): each span between two
 *   stamps of one server, clamped at 0, as that tool measures its segments, so E2E ends where
 *   TTFT ends. 22 of the 27 records have gen last_token_time − disagg arrival < TTFT;
 * - output tokens = 1 + (gen last_iter − first_iter + 1); TPOT = (E2E − TTFT) / (tokens − 1).
 */
import { expect, it } from "vitest";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as getSample } from "@/app/api/runs/[id]/trtllm/requests/route";
import { effectiveCollectors } from "@/lib/metrics/collectors-mismatch";
import { hasCacheData } from "@/lib/api/run-views";
import { runSummarySchema } from "@/lib/api/schemas";
import { requestSampleSchema, segmentSharePayloadSchema } from "@/lib/api/trtllm-charts";
import { figureProps } from "@/components/charts/figure-props";
import { segmentShareFigure } from "@/lib/metrics/figures/segments";
import { trtllmLatencyTiles } from "@/components/trtllm-latency/overview-tiles";
import { trtllmLatencyDefinitions } from "@/components/trtllm-latency/latency-definitions";
import { describeRealPublic, realPublicJson, realPublicParts } from "../helpers/real-public";
import { disaggSpans, spanMs } from "../helpers/trtllm-disagg-spans";
import { freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";

freshAppEachTest();

const FOLDER = "trtllm-1.2.1-disagg-perf-metrics-ddps-lab";
const RECORDS = "kv_transfer_p2048_d128_r1.0.EXCERPT-first27.json";

interface Timing {
  server_arrival_time: number;
  first_token_time: number;
  server_first_token_time: number;
  last_token_time: number;
}
interface Side {
  request_id: number;
  ctx_request_id: number;
  perf_metrics: {
    first_iter: number;
    last_iter: number;
    timing_metrics: Timing;
    kv_cache_metrics: { num_reused_blocks: number; num_missed_blocks: number };
  };
}
interface DisaggRecord {
  disagg_server_arrival_time: number;
  disagg_server_first_token_time: number;
  ctx_perf_metrics: Side;
  gen_perf_metrics: Side;
}
interface RoleSection {
  num_instances: number;
  tp: number;
  pp: number;
}
interface Metadata {
  model: string;
  version: string;
  context: RoleSection;
  generation: RoleSection;
}

/** numpy's default (linear) percentile, written out here so the test does not lean on Runlens's. */
function npPercentile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const pos = (q / 100) * (s.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, s.length - 1);
  return s[lo] + (pos - lo) * (s[hi] - s[lo]);
}
const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;

async function summary(id: string) {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

describeRealPublic(FOLDER, () => {
  const records = realPublicJson<DisaggRecord[]>(FOLDER, RECORDS);
  const meta = realPublicJson<Metadata>(FOLDER, "metadata.json");
  const ms = spanMs;
  const { ttft, tail, e2e, genIters, streamed, tpot } = disaggSpans(records);

  it("the excerpt is what PROVENANCE.md says: 22 engine-end E2E values below TTFT, 5 requests of 128 tokens", () => {
    const engineEnd = records.map((r) =>
      ms(r.disagg_server_arrival_time, r.gen_perf_metrics.perf_metrics.timing_metrics.last_token_time),
    );
    expect(engineEnd.filter((e, i) => e < ttft[i])).toHaveLength(22);
    expect(streamed).toHaveLength(5);
    // 127 generation iterations + the context phase's token.
    expect(streamed.map((i) => 1 + genIters[i])).toEqual([128, 128, 128, 128, 128]);
  });

  it("E2E is never shorter than TTFT, and TTFT, E2E and TPOT follow the records' stamps", async () => {
    const id = await uploadRun(realPublicParts(FOLDER));
    const run = await summary(id);
    const l = run.timeBreakdown!.latency!;
    expect(l.ttftMs!.count).toBe(27);
    expect(l.e2eMs!.count).toBe(27);
    expect(l.e2eMs!.min!).toBeGreaterThanOrEqual(l.ttftMs!.min!);
    expect(l.e2eMs!.p50!).toBeGreaterThanOrEqual(l.ttftMs!.p50!);
    for (const q of [50, 75, 90, 99] as const) {
      expect(l.ttftMs![`p${q}`]).toBeCloseTo(npPercentile(ttft, q), 6);
      expect(l.e2eMs![`p${q}`]).toBeCloseTo(npPercentile(e2e, q), 6);
    }
    expect(l.e2eMs!.mean).toBeCloseTo(mean(e2e), 6);
    expect(l.e2eMs!.max).toBeCloseTo(Math.max(...e2e), 6);

    // TPOT from the generation side's first_iter/last_iter: no step metrics in these records.
    expect(l.tokensKnown).toBe(27);
    expect(l.tokensFromIterations).toBe(27);
    expect(l.oneResponse).toBe(22);
    expect(l.tpotMs!.count).toBe(5);
    expect(l.tpotMs!.mean).toBeCloseTo(mean(tpot), 6);
    expect(l.tpotMs!.p50).toBeCloseTo(npPercentile(tpot, 50), 6);
    expect(run.derived.tokPerUser.mean.value!).toBeCloseTo(mean(tpot.map((t) => 1000 / t)), 6);

    // The page says how TPOT's tokens were counted and why 22 requests have none.
    const defs = trtllmLatencyDefinitions(run.timeBreakdown!.mode, l);
    expect(defs.find((d) => d.term === "TPOT")!.text).toContain("last_iter − first_iter + 1");
    expect(defs.find((d) => d.term === "E2E")!.text).toContain(
      "22 requests sent their first response after their last token",
    );
    const tpotTile = trtllmLatencyTiles(run).find((t) => t.testId === "tile-trtllm-tpot")!;
    expect(tpotTile.hint).not.toContain("needs per-step metrics");
  });

  it("each request's stacked segments end at its own E2E: the TTFT segments tile TTFT, decode is E2E − TTFT", async () => {
    const id = await uploadRun(realPublicParts(FOLDER));
    const res = await getSample(new Request(`http://localhost/api/runs/${id}/trtllm/requests`), idParams(id));
    const sample = requestSampleSchema.parse(await res.json());
    expect(sample.total).toBe(27);
    const decodeAt = sample.segmentNames.indexOf("decode");
    const byTtft = new Map(ttft.map((t, i) => [t.toFixed(6), i]));
    let checked = 0;
    for (const r of sample.requests) {
      const i = byTtft.get(r.ttftMs!.toFixed(6))!;
      const v = r.segments.map((x) => (typeof x === "number" ? x : 0));
      const ttftPart = v.reduce((a, x, k) => (k === decodeAt ? a : a + x), 0);
      // Every stamp of this run chains, so the stack is exactly the request's own TTFT and E2E.
      expect(ttftPart).toBeCloseTo(ttft[i], 6);
      expect(v[decodeAt]).toBeCloseTo(Math.max(0, tail[i]), 6);
      expect(ttftPart + v[decodeAt]).toBeCloseTo(e2e[i], 6);
      expect(ttftPart + v[decodeAt]).toBeLessThanOrEqual(r.e2eMs! + 1e-6);
      checked++;
    }
    expect(checked).toBe(27);
    // Decode from the gen worker's first token instead overlapped gen_postprocessing: the stack
    // then ran past E2E on 21 of the 27 requests of this run.
    const engineDecode = records.map((r) => {
      const t = r.gen_perf_metrics.perf_metrics.timing_metrics;
      return ms(t.first_token_time, t.last_token_time);
    });
    expect(records.filter((_, i) => ttft[i] + engineDecode[i] > e2e[i])).toHaveLength(21);
  });

  it("proves return_perf_metrics was on, and reads metadata.json's model and GPUs as run facts", async () => {
    const id = await uploadRun(realPublicParts(FOLDER));
    const run = await summary(id);
    expect(run.collectors.returnPerfMetrics).toBe(true);
    expect(effectiveCollectors(run).returnPerfMetrics).toEqual({
      value: true,
      source: "recorded",
      evidence: null,
    });
    expect(run.facts.model).toMatchObject({ value: meta.model, source: "run metadata" });
    const gpus = [meta.context, meta.generation].reduce((n, r) => n + r.num_instances * r.tp * r.pp, 0);
    expect(gpus).toBe(2);
    expect(run.facts.gpuCount).toMatchObject({
      value: gpus,
      source: "run metadata (Σ instances × TP × PP × DP)",
    });
    expect(run.facts.backendVersion).toMatchObject({ value: meta.version });
    expect(run.files.find((f) => f.name === "metadata.json")!.kind).toBe("engine-config");
    expect(run.warnings.join("\n")).not.toContain("metadata.json");
  });

  it("KV metrics at 0 reused and 0 missed blocks are 0 lookups, never a 0 % hit rate", async () => {
    const kv = records.map((r) => r.ctx_perf_metrics.perf_metrics.kv_cache_metrics);
    const lookups = kv.reduce((n, k) => n + k.num_reused_blocks + k.num_missed_blocks, 0);
    expect(lookups).toBe(0);
    const run = await summary(await uploadRun(realPublicParts(FOLDER)));
    expect(run.timeBreakdown!.kvBlockLookups).toBe(lookups);
    expect(run.timeBreakdown!.kvCacheHitRate).toBeNull();
    expect(run.endpoints.map((e) => e.kvCacheHitRate)).toEqual([null, null]);
    expect(hasCacheData(run)).toBe(true);
  });

  it("the segment-share chart draws every arrival bucket", async () => {
    const id = await uploadRun(realPublicParts(FOLDER));
    const res = await getChart(new Request(`http://localhost/api/runs/${id}/charts/x`), {
      params: Promise.resolve({ id, key: TRTLLM_CHARTS.segmentShare.key }),
    });
    const payload = segmentSharePayloadSchema.parse(await res.json());
    // Arrivals from the first: 27 requests make ceil(27 / 20) = 2 buckets over the arrival span.
    const arrivals = records.map((r) => r.disagg_server_arrival_time);
    const origin = Math.min(...arrivals);
    const span = (Math.max(...arrivals) - origin) * 1000;
    expect(payload.buckets).toHaveLength(2);
    expect(payload.bucketMs).toBeCloseTo(span / 2, 6);
    const second = arrivals.filter((a) => (a - origin) * 1000 >= span / 2).length;
    expect(payload.buckets.map((b) => b.requests)).toEqual([27 - second, second]);
    // Each bucket is a step of the area: the last one closes at its end, so both have width.
    const drawn = figureProps(segmentShareFigure(payload, "all")).data;
    expect(drawn.map((r) => r.x)).toEqual([0, payload.bucketMs / 1000, (2 * payload.bucketMs) / 1000]);
    expect(drawn[2].decode).toBe(drawn[1].decode);
  });
});
