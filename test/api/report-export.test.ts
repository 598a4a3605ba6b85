/**
 * GET /api/runs/{id}/report.html and GET /api/compare/report.html: one self-contained file (no
 * script, no external reference), every stored chart of the run's views drawn as inline SVG or
 * said missing, upload text escaped. Samples: a real aiperf run (profile_export.jsonl, its
 * summary and server-metrics export) and test/generators/trtllm.mjs perf metrics.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getCompareReport } from "@/app/api/compare/report.html/route";
import { GET as getReport } from "@/app/api/runs/[id]/report.html/route";
import { chartKeys } from "@/lib/store/runs-repo";
import { REPORT_CHART_KEYS } from "@/lib/runs/report/run-report";
import { sampleRequests } from "@/lib/runs/trtllm-requests";
// @ts-expect-error plain ESM generator without type declarations
import { writeRun } from "../generators/server-metrics.mjs";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { GET as getChart } from "@/app/api/runs/[id]/charts/[key]/route";
import { gpuEnergyFacts } from "@/lib/metrics/figures/gpu";
import { fixture, freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";

const t = freshAppEachTest();

const url = (p: string) => new Request(`http://localhost${p}`);
const AIPERF = fixture("aiperf/real-v0.6-c4");

async function uploadAiperf(name = "aiperf c4") {
  return uploadRun(
    ["profile_export.jsonl", "profile_export_aiperf.json", "server_metrics_export.json"].map((f) => ({
      name: f,
      path: path.join(AIPERF, f),
    })),
    { name },
  );
}

/** The Qwen c4 example run: 10 of aiperf's 64 records, GPU telemetry all before the first request. */
async function uploadQwenC4() {
  const dir = path.join(process.cwd(), "lib/examples/files/aiperf-qwen-sweep/qwen-c4");
  return uploadRun(
    ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"].map((f) => ({
      name: f,
      path: path.join(dir, f),
    })),
    { name: "qwen c4" },
  );
}

async function uploadTrtllm() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-report-"));
  const gen = generateTrtllmRun({ dir, mode: "disaggregated", requests: 60, seed: 2 });
  return uploadRun(gen.files.map((p) => ({ name: path.basename(p), path: p })));
}

async function report(id: string): Promise<string> {
  const res = await getReport(url(`/api/runs/${id}/report.html`), idParams(id));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="[\w.-]+-report\.html"$/);
  return res.text();
}

/** Nothing in the file reaches out: no script, no link, no src or href outside the page itself. */
function expectSelfContained(html: string) {
  expect(html).not.toMatch(/<script|<link|<iframe|<img|@import|url\(/i);
  for (const m of html.matchAll(/\b(?:src|href)="([^"]*)"/g)) expect(m[1], m[0]).toMatch(/^#/);
  // The only URL: the SVG namespace, which is a name, not a fetch.
  for (const m of html.matchAll(/https?:\/\/[^"\s<]+/g)) expect(m[0]).toBe("http://www.w3.org/2000/svg");
}

const figures = (html: string) => [
  ...html.matchAll(/<figure data-chart="([^"]+)" data-drawn="(true|false)">([\s\S]*?)<\/figure>/g),
];

describe("run report", () => {
  it("an aiperf run: every view's stored charts drawn as SVG with their tables, views without data say what they need", async () => {
    const id = await uploadAiperf();
    const html = await report(id);
    expectSelfContained(html);
    const figs = figures(html);
    const drawn = figs.filter((f) => f[2] === "true");
    // One SVG per drawn figure and no other; an undrawn one has its missing line and no SVG.
    expect((html.match(/<svg /g) ?? []).length).toBe(drawn.length);
    for (const f of figs) {
      if (f[2] === "true") expect(f[3]).toMatch(/<svg [\s\S]*<\/svg>/);
      else expect(f[3]).toMatch(/<p class="missing" data-missing>Not drawn: /);
    }
    // Every payload the run stored that a view draws is in the report.
    const stored = (await chartKeys(t.app.store.db, [id]))[id].filter((k) => REPORT_CHART_KEYS.includes(k));
    expect(stored.length).toBeGreaterThan(3);
    for (const key of stored.filter(
      // aiperf's GPU statistics are a table, not a chart.
      (k) => !["aiperf-agreement", "aiperf-slowest", "aiperf-trials", "aiperf-gpu-summary"].includes(k),
    ))
      expect(
        figs.some((f) => f[1].startsWith(key)),
        key,
      ).toBe(true);
    expect(figs.map((f) => f[1])).toEqual(
      expect.arrayContaining([
        "aiperf-distribution-ttftMs-histogram",
        "aiperf-distribution-ttftMs-cdf",
        "aiperf-timeline-throughput",
      ]),
    );
    // Axis titles with units, numbers with separators and never in scientific notation.
    expect(html).toContain(">Time to first token (ms)</text>");
    expect(html).toContain(">time from the first request (s)</text>");
    expect(html).not.toMatch(/>\s*-?\d+(\.\d+)?e[+-]?\d+\s*</);
    // Summary and facts, and the views the run has nothing for.
    expect(html).toContain("<h2>Summary</h2>");
    expect(html).toMatch(/<dt>model<\/dt>|<dt>concurrency<\/dt>/);
    expect(html).toContain("profile_export.jsonl");
    expect(html).toMatch(
      /<h2>Breakdown<\/h2><p class="muted">Nothing to show: upload TensorRT-LLM perf_metrics/,
    );
    expect(html).toMatch(/<h3>Request latency \(aiperf: 200 requests, 2 errors\)<\/h3>/);
  });

  it("an aiperf run: the Latency view's agreement and slowest-request tables", async () => {
    const id = await uploadAiperf();
    const html = await report(id);
    const latency = html.slice(
      html.indexOf('<section id="latency">'),
      html.indexOf("</section>", html.indexOf('<section id="latency">')),
    );
    expect(latency).toContain("<h3>Agreement with the producer&#39;s summary</h3>");
    expect(latency).toMatch(
      /Every figure agrees with the producer&#39;s summary \(profile_export_aiperf\.json\)/,
    );
    // The slowest request by end-to-end latency: the successful profiling record of the
    // fixture with the largest request_latency (aiperf's metric, ms), its x_request_id as written.
    const records = fs
      .readFileSync(path.join(AIPERF, "profile_export.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((r) => !r.error && r.metadata.benchmark_phase === "profiling");
    const slowest = records.reduce((a, b) =>
      b.metrics.request_latency.value > a.metrics.request_latency.value ? b : a,
    );
    const e2eTable = latency.slice(latency.indexOf("requests by end-to-end latency</h3>"));
    expect(latency).toMatch(/<h3>Slowest 20 of 198 requests by end-to-end latency<\/h3>/);
    const firstRow =
      /<tr><td>([^<]+)<\/td><td class="n">[^<]+<\/td><td class="n">[^<]+<\/td><td class="n">([^<]+)<\/td>/.exec(
        e2eTable.slice(e2eTable.indexOf("</tr>") + 5),
      )!;
    expect(firstRow[1]).toBe(slowest.metadata.x_request_id);
    expect(Number(firstRow[2].replace(/,/g, ""))).toBeCloseTo(slowest.metrics.request_latency.value, 1);
  });

  it("a TensorRT-LLM run: breakdown and latency charts from the perf metrics", async () => {
    const id = await uploadTrtllm();
    const html = await report(id);
    expectSelfContained(html);
    const ids = figures(html)
      .filter((f) => f[2] === "true")
      .map((f) => f[1]);
    expect(ids).toEqual(
      expect.arrayContaining([
        "trtllm-segments",
        "trtllm-segment-share",
        "trtllm-kv-transfer-bandwidth",
        "trtllm-kv-hit-rate",
        "trtllm-latency-distribution-ttftMs-histogram",
        "trtllm-latency-over-time-ttftMs",
      ]),
    );
    // The segments stacked at p50, p90 and p99 as the page stacks them at one: each bar's total
    // past its end, a Σ (a sum of percentiles, not the percentile of the total).
    expect(html).toContain(">time at the statistic (ms)</text>");
    const segments = figures(html).find((f) => f[1] === "trtllm-segments")!;
    expect([...segments[3].matchAll(/class="value-label"[^>]*>(Σ [\d,.]+ m?s)<\/text>/g)]).toHaveLength(3);
    // The per-request bars: all 60 requests (fewer than the chart's 400), slowest TTFT first,
    // each column its segments up to the first token, so a column's bands add up to its TTFT.
    const bars = figures(html).find((f) => f[1] === "trtllm-request-bars")!;
    expect(bars[2]).toBe("true");
    expect(bars[3]).toContain("60 requests, ms per segment up to the first token");
    expect(bars[3]).toContain("Data table (60 rows)");
    const rows = [...bars[3].matchAll(/<tr><td[^>]*>([^<]*)<\/td>((?:<td[^>]*>[^<]*<\/td>)+)<\/tr>/g)].map(
      (m) => [...m[2].matchAll(/>([^<]*)</g)].map((c) => c[1]),
    );
    const total = (cells: string[]) =>
      cells.filter((c) => c !== "not recorded").reduce((a, c) => a + Number(c.replace(/,/g, "")), 0);
    expect(rows).toHaveLength(60);
    for (let i = 1; i < rows.length; i++)
      expect(total(rows[i])).toBeLessThanOrEqual(total(rows[i - 1]) + 0.01);
    const sample = await sampleRequests(t.app.store.db, id, "ttft", "desc", 400);
    expect(total(rows[0])).toBeCloseTo(sample!.requests[0].ttftMs!, 1);
    expect(html).toContain("<td>gen_kv_transfer</td>");
    // Every request has transfer stamps: gen_queue, their alternative, is not a segment it missed.
    expect(html).not.toContain("<td>gen_queue</td>");
  });

  it("server metrics of several endpoints: one line per endpoint in each per-endpoint chart", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-report-sm-"));
    writeRun(dir, { endpoints: 3, seconds: 12 });
    const id = await uploadRun([
      { name: "server_metrics_export.json", path: path.join(dir, "server_metrics_export.json") },
    ]);
    const html = await report(id);
    expectSelfContained(html);
    const byId = new Map(figures(html).map((f) => [f[1], f]));
    for (const key of ["sm-series-ep-kv-usage", "sm-series-ep-running", "sm-series-ep-waiting"]) {
      const f = byId.get(key)!;
      expect(f, key).toBeDefined();
      expect(f[3]).toContain("3 endpoints");
    }
    // KV usage: every endpoint has the gauge, so three lines and a legend of three.
    const kv = byId.get("sm-series-ep-kv-usage")!;
    expect(kv[2]).toBe("true");
    expect((kv[3].match(/<polyline class="mark"/g) ?? []).length).toBe(3);
    // Hit rate: only the prefill endpoint (the first third) has prompt counters.
    const hit = byId.get("sm-series-ep-hit-rate")!;
    expect(hit[2]).toBe("true");
    expect((hit[3].match(/<polyline class="mark"/g) ?? []).length).toBe(1);
    expect(hit[3]).toMatch(
      /one line per endpoint that does prefill \([^)]+\); 2 decode endpoints have no prefill/,
    );
  });

  it("GPU telemetry with no sample in the profiling window: one notice for the view, as the page says it, no empty figures", async () => {
    // The Qwen c4 example: its DCGM scrapes end before the first profiling request.
    const html = await report(await uploadQwenC4());
    const start = html.indexOf('<section id="gpu">');
    expect(start).toBeGreaterThan(-1);
    const gpu = html.slice(start, html.indexOf("</section>", start));
    // Said once, in the view's words, and no figure of the three is listed empty beneath it.
    expect((gpu.match(/<figure /g) ?? []).length).toBe(0);
    expect((gpu.match(/is in its profiling window/g) ?? []).length).toBe(1);
    expect(gpu).toContain("No GPU telemetry in the profiling window. None of the run&#39;s ");
    expect(gpu).toContain("all before the first profiling request");
    expect(html).not.toContain("Every telemetry sample");
  });

  it("GPU telemetry in the profiling window: the GPU section says the view's energy line (GPUs, energy, per output token)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-report-gpu-"));
    const gen = await generateAiperfRun(dir, { records: 40, concurrency: 4, seed: 5, csv: false, gpus: 2 });
    const id = await uploadRun(
      [gen.jsonlPath, gen.summaryPath, gen.gpuPath].map((p: string) => ({ name: path.basename(p), path: p })),
      { name: "aiperf with GPU telemetry" },
    );
    const html = await report(id);
    const start = html.indexOf('<section id="gpu">');
    expect(start).toBeGreaterThan(-1);
    const gpu = html.slice(start, html.indexOf("</section>", start));
    // What the GPU view lists above its charts, from the same payload.
    const res = await getChart(url(`/api/runs/${id}/charts/aiperf-gpu`), {
      params: Promise.resolve({ id, key: "aiperf-gpu" }),
    });
    expect(res.status).toBe(200);
    const facts = gpuEnergyFacts(await res.json());
    expect(facts.map(([k]) => k)).toEqual([
      "GPUs",
      "energy in the profiling window",
      "energy per output token",
    ]);
    expect(facts[1][1]).toMatch(/^[\d,.]+ kJ$/);
    expect(facts[2][1]).toMatch(/^[\d,.]+ J$/);
    for (const [k, v] of facts) expect(gpu).toContain(`<dt>${k}</dt><dd>${v}</dd>`);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("records that are a sample of the run: the Throughput and Latency sections say so above their charts, as their views do", async () => {
    const html = await report(await uploadQwenC4());
    const section = (id: string) => {
      const start = html.indexOf(`<section id="${id}">`);
      return html.slice(start, html.indexOf("</section>", start));
    };
    for (const id of ["throughput", "latency"]) {
      const s = section(id);
      expect(s, id).toContain("<figure ");
      const note = s.indexOf(
        "The charts here are drawn from 10 of 64 requests: the records uploaded are a sample",
      );
      expect(note, id).toBeGreaterThan(-1);
      expect(note, id).toBeLessThan(s.indexOf("<figure "));
    }
  });

  it("the summary's facts read as the run header writes them: in words, sources in words, no key or field path", async () => {
    const html = await report(await uploadQwenC4());
    const summary = html.slice(
      html.indexOf('<section id="summary">'),
      html.indexOf('<section id="latency">'),
    );
    const facts = [...summary.matchAll(/<dt>([^<]*)<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [m[1], m[2]]);
    // The header's words (lib/metrics/run-info.ts): the record count without queue-wait stamps
    // was "queue wait missing", a flag "true", a source the producer's field path.
    expect(facts).toContainEqual(["records without queue-wait stamps", "10"]);
    expect(facts).toContainEqual(["streaming", "yes"]);
    expect(facts.map(([k]) => k)).not.toContain("queue wait missing");
    expect(facts.map(([k]) => k).filter((k) => / source$/.test(k))).toEqual([]);
    expect(facts.map(([, v]) => v).join("\n")).not.toContain("input_config");
  });

  it("escapes the uploader's text and answers 404 for unknown runs", async () => {
    const id = await uploadAiperf('<script>alert("x")</script>');
    const html = await report(id);
    expect(html).not.toContain("<script>alert");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    const unknown = await getReport(
      url("/api/runs/AAAAAAAAAAAAAAAAAAAAAA/report.html"),
      idParams("AAAAAAAAAAAAAAAAAAAAAA"),
    );
    expect(unknown.status).toBe(404);
  });
});

describe("comparison report", () => {
  it("holds the runs, the delta table with its charts and the CDF overlays", async () => {
    const a = await uploadAiperf("run a");
    const b = await uploadTrtllm();
    const res = await getCompareReport(url(`/api/compare/report.html?runs=${a},${b}&stat=p90`));
    expect(res.status).toBe(200);
    const html = await res.text();
    expectSelfContained(html);
    expect(html).toContain("<h2>Deltas against the baseline (p90)</h2>");
    expect(html).toContain("<td>run a</td>");
    const figs = figures(html);
    expect(figs.some((f) => f[1] === "cdf-ttftMs" && f[2] === "true")).toBe(true);
    expect(figs.filter((f) => f[1].startsWith("delta-")).length).toBeGreaterThan(0);
    expect((html.match(/<svg /g) ?? []).length).toBe(figs.filter((f) => f[2] === "true").length);
    const none = await getCompareReport(url("/api/compare/report.html?runs=AAAAAAAAAAAAAAAAAAAAAA"));
    expect(none.status).toBe(404);
    const bad = await getCompareReport(url("/api/compare/report.html?runs=../x"));
    expect(bad.status).toBe(400);
  });
});
