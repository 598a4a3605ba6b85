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
import { generateTrtllmRun } from "../generators/trtllm.mjs";
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
      (k) => !["aiperf-agreement", "aiperf-slowest", "aiperf-trials"].includes(k),
    ))
      expect(
        figs.some((f) => f[1].startsWith(key)),
        key,
      ).toBe(true);
    expect(figs.map((f) => f[1])).toEqual(
      expect.arrayContaining([
        "aiperf-distribution-ttftMs-histogram",
        "aiperf-distribution-ttftMs-cdf",
        "aiperf-timeline-requests",
      ]),
    );
    // Axis titles with units, numbers with separators and never in scientific notation.
    expect(html).toContain(">Time to first token (ms)</text>");
    expect(html).toContain(">Time since the run&#39;s first request (s)</text>");
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
    expect(html).toContain(">Segment time (ms)</text>");
    expect(html).toContain("<td>gen_kv_transfer</td>");
    // Every request has transfer stamps: gen_queue, their alternative, is not a segment it missed.
    expect(html).not.toContain("<td>gen_queue</td>");
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
