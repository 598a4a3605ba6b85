/**
 * The raw-scrape reader against a plain restatement of its rules (one map of sample arrays per
 * series, slices as objects): random scrapes with series that skip scrapes, labels in another
 * order, duplicated series in one scrape, two spellings of one endpoint, warmup lines, counter
 * resets and histograms must give the same series in the same order, to the last bit.
 */
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { WarningLog } from "@/lib/formats/json-lines";
import { toLabels, toNumber } from "@/lib/formats/server-metrics-json";
import { inferType, readServerMetricsJsonl } from "@/lib/formats/server-metrics-jsonl";
import { normalizeEndpoint } from "@/lib/formats/endpoint";
import { sliceDurationNs, sliceList } from "@/lib/formats/server-metrics/scrape-window";
import { canonicalName, type MetricType } from "@/lib/formats/server-metrics/types";

interface OracleSeries {
  name: string;
  type: MetricType;
  endpoint: string;
  labels: Record<string, string>;
  stats: Record<string, number>;
  slices: { startNs: number; endNs: number; value: number; max: number }[];
}

function oracle(lines: Record<string, unknown>[]) {
  type T = { name: string; type: MetricType; endpoint: string; labels: Record<string, string> };
  const tracks = new Map<string, T & { t: number[]; v: number[]; c: number[]; fp: number }>();
  const spans = new Map<string, { first: number; last: number }>();
  for (const line of lines) {
    const t = toNumber(line.timestamp_ns)!;
    const endpoint = normalizeEndpoint(line.endpoint_url as string);
    const warmup = typeof line.benchmark_phase === "string" && line.benchmark_phase !== "profiling";
    if (!warmup) {
      const s = spans.get(endpoint);
      spans.set(
        endpoint,
        s ? { first: Math.min(s.first, t), last: Math.max(s.last, t) } : { first: t, last: t },
      );
    }
    for (const [rawName, samples] of Object.entries(line.metrics as Record<string, unknown[]>))
      for (const s of samples as Record<string, unknown>[]) {
        const type = inferType(rawName, s);
        const v = toNumber(type === "histogram" ? s.sum : s.value);
        if (v === null) continue;
        // Bad values are left out: a negative counter, a usage fraction past 1.5.
        if ((type === "counter" && v < 0) || (rawName === "vllm:kv_cache_usage_perc" && (v < 0 || v > 1.5)))
          continue;
        const key = `${endpoint}\u0000${rawName}\u0000${s.labels === undefined ? "" : JSON.stringify(s.labels)}`;
        let tr = tracks.get(key);
        if (!tr) {
          tr = {
            t: [],
            v: [],
            c: [],
            fp: -1,
            name: canonicalName(rawName),
            type,
            endpoint,
            labels: toLabels(s.labels),
          };
          tracks.set(key, tr);
        }
        if (warmup && tr.fp === -1) {
          tr.t.length = 0;
          tr.v.length = 0;
          tr.c.length = 0;
        } else if (!warmup && tr.fp === -1) tr.fp = tr.t.length;
        else if (warmup) continue;
        tr.t.push(t);
        tr.v.push(v);
        tr.c.push(toNumber(s.count) ?? 0);
      }
  }
  const deltas = (v: number[]) => v.map((x, i) => (i === 0 ? 0 : Math.max(0, x - v[i - 1])));
  const out: OracleSeries[] = [];
  // One grid for the whole run: every endpoint's intervals start where the earliest window does.
  const start = Math.min(...[...spans.values()].map((s) => s.first));
  const end = Math.max(...[...spans.values()].map((s) => s.last));
  const step = sliceDurationNs(end - start);
  for (const tr of tracks.values()) {
    if (tr.fp === -1) continue;
    const span = spans.get(tr.endpoint)!;
    const refStart = tr.fp > 0 ? tr.t[tr.fp - 1] : span.first;
    const cells = new Map<number, { sum: number; n: number; max: number }>();
    const add = (k: number, x: number) => {
      const c = cells.get(k) ?? { sum: 0, n: 0, max: -Infinity };
      c.sum += x;
      c.n++;
      c.max = Math.max(c.max, x);
      cells.set(k, c);
    };
    let stats: Record<string, number>;
    if (tr.type === "gauge") {
      const v = tr.v.slice(tr.fp);
      stats = { avg: v.reduce((a, b) => a + b, 0) / v.length, min: Math.min(...v), max: Math.max(...v) };
      tr.t.slice(tr.fp).forEach((t, i) => add(Math.max(0, Math.floor((t - start) / step)), v[i]));
    } else {
      const d = deltas(tr.v);
      const total = d.reduce((a, b) => a + b, 0);
      const dur = (span.last - refStart) / 1e9;
      stats =
        tr.type === "histogram"
          ? { sum: total, count: deltas(tr.c).reduce((a, b) => a + b, 0) }
          : dur > 0
            ? { total, rate: total / dur }
            : { total };
      for (let i = 1; i < d.length; i++) add(Math.max(0, Math.floor((tr.t[i] - start - 1) / step)), d[i]);
    }
    const slices = [...cells]
      .sort((a, b) => a[0] - b[0])
      .map(([k, c]) => ({
        startNs: start + k * step,
        // The interval the run's last scrape falls in ends there (a partial interval).
        endNs: end > start + k * step ? Math.min(end, start + (k + 1) * step) : start + (k + 1) * step,
        value: tr.type === "gauge" ? c.sum / c.n : c.sum,
        max: tr.type === "gauge" ? c.max : c.sum,
      }));
    out.push({ name: tr.name, type: tr.type, endpoint: tr.endpoint, labels: tr.labels, stats, slices });
  }
  return { series: out, windows: [...spans].map(([ep, s]) => [ep, (s.last - s.first) / 1e9]) };
}

async function read(lines: Record<string, unknown>[]) {
  const src = Readable.from([Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n"))]);
  const set = await readServerMetricsJsonl(src, new WarningLog(), { records: 0, skipped: 0 }, 1 << 20);
  return {
    series: set.series.map((s) => ({ ...s, slices: sliceList(s.slices) })),
    windows: [...set.windows].map(([ep, w]) => [ep, w.durationS]),
  };
}

const URLS = ["http://A:1/metrics", "a:1", "http://b:2/metrics", "c:3/x"];
const FAMILIES = [
  "vllm:prompt_tokens_total",
  "vllm:kv_cache_usage_perc",
  "sglang:num_running_reqs",
  "h_seconds",
];
const LABELS = [
  undefined,
  { a: "1", b: "2" },
  { b: "2", a: "1" },
  { a: 1 },
  { a: "1" },
  null,
  { n: { x: 1 } },
];

const sample = fc.record({
  family: fc.integer({ min: 0, max: FAMILIES.length - 1 }),
  labels: fc.integer({ min: 0, max: LABELS.length - 1 }),
  // -0 left out: the reader and the restatement may carry it as 0 or -0, which deep equality tells
  // apart though the stored JSON does not.
  value: fc.oneof(
    fc.integer({ min: -5, max: 5000 }),
    fc.double({ min: -1, max: 10, noNaN: true }).map((v) => (Object.is(v, -0) ? 0 : v)),
  ),
  histogram: fc.boolean(),
});
const scrape = fc.record({
  url: fc.integer({ min: 0, max: URLS.length - 1 }),
  dt: fc.integer({ min: 0, max: 3000 }),
  warmup: fc.boolean(),
  samples: fc.array(sample, { maxLength: 8 }),
});

type Scrape = typeof scrape extends fc.Arbitrary<infer T> ? T : never;

function toLines(scrapes: Scrape[], spreadS: number) {
  let t = 1_765_000_000e9;
  return scrapes.map((s) => {
    t += s.dt * 1e6 * spreadS;
    const metrics: Record<string, unknown[]> = {};
    for (const x of s.samples) {
      const list = (metrics[FAMILIES[x.family]] ??= []);
      const labels = LABELS[x.labels];
      list.push({
        ...(labels === undefined ? {} : { labels }),
        ...(x.histogram
          ? { buckets: { "1": 1 }, sum: x.value, count: Math.floor(x.value) }
          : { value: x.value }),
      });
    }
    return {
      endpoint_url: URLS[s.url],
      timestamp_ns: t,
      ...(s.warmup ? { benchmark_phase: "warmup" } : {}),
      metrics,
    };
  });
}

describe("server-metrics JSONL reader", () => {
  it("matches the plain restatement on random scrapes (short and multi-hour windows)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(scrape, { maxLength: 60 }),
        fc.constantFrom(1, 100),
        async (scrapes, spread) => {
          const lines = toLines(scrapes, spread);
          expect(await read(lines)).toEqual(oracle(lines));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a series missing from some scrapes keeps its own sample times", async () => {
    const line = (t: number, withB: boolean) => ({
      endpoint_url: "http://h:1/metrics",
      timestamp_ns: t * 1e9,
      metrics: {
        a_total: [{ value: t * 10 }],
        ...(withB ? { b_total: [{ value: t * 100 }] } : {}),
      },
    });
    const lines = [
      line(0, true),
      line(1, false),
      line(2, true),
      line(3, true),
      line(4, false),
      line(5, true),
    ];
    const got = await read(lines);
    expect(got).toEqual(oracle(lines));
    const b = got.series.find((s) => s.name === "b")!;
    expect(b.slices.map((s) => [s.startNs / 1e9, s.value])).toEqual([
      [1, 200],
      [2, 100],
      [4, 200],
    ]);
  });
});
