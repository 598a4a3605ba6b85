/**
 * GET /api/sweeps/{id}/report.html: one self-contained HTML file of a sweep (docs/formats.md
 * §Offline report): the three Pareto charts with each point labelled by its load, the table of
 * every point with aiperf's own summary values (the real qwen c1/c2/c4 captures), and goodput
 * against concurrency under the SLO the link carries, on the log axes it asks for.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getReport } from "@/app/api/sweeps/[id]/report.html/route";
import { formatNumber } from "@/lib/format-number";
import { fixture, freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

const qwen = [1, 2, 4].flatMap((c) =>
  ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"].map((f) => ({
    name: `qwen-sweep/qwen-c${c}/${f}`,
    path: fixture(`aiperf/qwen-c${c}__${f}`),
  })),
);

async function qwenSweep(): Promise<string> {
  const res = await upload(uploadRequest(qwen));
  expect(res.status).toBe(201);
  return ((await res.json()) as { sweep: { id: string } }).sweep.id;
}

const report = (id: string, query = "") =>
  getReport(new Request(`http://localhost/api/sweeps/${id}/report.html${query}`), idParams(id));

describe("sweep report", () => {
  it("is one self-contained file with the Pareto charts, every point and goodput", async () => {
    const id = await qwenSweep();
    const res = await report(id, "?stat=p90&slo=ttft:p99:60");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      'attachment; filename="qwen-sweep-sweep-report.html"',
    );
    const html = await res.text();
    // Nothing reaches out: no script, link or external reference.
    expect(html).not.toMatch(/<script|<link|<iframe|<img|@import|url\(/i);
    for (const m of html.matchAll(/\b(?:src|href)="([^"]*)"/g)) expect(m[1]).toMatch(/^#/);

    for (const chart of ["sweep-interactivity", "sweep-latency", "sweep-ttft", "sweep-goodput"])
      expect(html).toContain(`data-chart="${chart}" data-drawn="true"`);
    // Each point labelled with its load beside its mark.
    for (const c of ["c1", "c2", "c4"]) expect(html).toMatch(new RegExp(`font-size="10">${c}</text>`));
    // The points table at p90 holds tok/s per user's slow tail: 1000 ÷ aiperf's own ITL p90
    // (aiperf's p10 of output_token_throughput_per_user within 0.01%).
    const s1 = JSON.parse(fs.readFileSync(fixture("aiperf/qwen-c1__profile_export_aiperf.json"), "utf8"));
    expect(html).toContain(`<td class="n">${formatNumber(1000 / s1.inter_token_latency.p90, 3)}</td>`);
    expect(html).toContain("tok/s/user worst 10% (p10)");
    expect(html).toContain("statistic p90");
    // TTFT p99 of the recorded requests: c1 32.8 ms, c2 57.8 ms, c4 70.7 ms → c2 is the highest meeting 60 ms.
    expect(html).toContain("Highest load meeting TTFT p99 ≤ 60 ms: c2.");
    // The records are a sample of the summary's requests: said per run.
    expect(html).toContain("c1: the records hold 10 of the 64 requests");
  });

  it("draws the log axes the page had: concurrency 1, 2, 4 evenly spaced on a log goodput axis", async () => {
    const id = await qwenSweep();
    const goodputXs = async (query: string) => {
      const html = await (await report(id, query)).text();
      const figure = html.slice(html.indexOf('data-chart="sweep-goodput"'));
      const points = figure.match(/<polyline class="mark"[^>]* points="([^"]+)"/)![1];
      return { html, xs: points.split(" ").map((p) => Number(p.split(",")[0])) };
    };
    const linear = await goodputXs("?slo=ttft:p99:60");
    // Linear: c2 → c4 spans twice c1 → c2.
    expect((linear.xs[2] - linear.xs[1]) / (linear.xs[1] - linear.xs[0])).toBeCloseTo(2, 1);
    expect(linear.html).not.toContain("log scale");
    const log = await goodputXs("?slo=ttft:p99:60&logx=true&logy=true&glogx=true");
    // Log: each doubling is the same step.
    expect((log.xs[2] - log.xs[1]) / (log.xs[1] - log.xs[0])).toBeCloseTo(1, 2);
    expect(log.html).toContain("Concurrency (requests in flight), log scale");
    expect(log.html).toContain("log Pareto x, Pareto y, goodput x");
    expect(log.html).toContain("the y axis is on a log scale");
    expect((await report(id, "?logx=maybe")).status).toBe(400);
  });

  it("says how to add goodput when the link has no SLO; refuses a bad query; 404 for an unknown sweep", async () => {
    const id = await qwenSweep();
    const html = await (await report(id)).text();
    expect(html).toContain("statistic p50");
    expect(html).toContain("No SLO in this report&#39;s link");
    expect(html).not.toContain('data-chart="sweep-goodput"');
    expect((await report(id, "?stat=p42")).status).toBe(400);
    expect((await report(id, "?slo=nonsense")).status).toBe(400);
    expect((await report("no-such-sweep-1234")).status).toBe(404);
  });
  it("the real qwen c1/c2/c4 captures: three single runs, so no interval is drawn and each says its spread is not known", async () => {
    // docs/metrics.md §Sweeps, "Repeated runs": a single run has no interval (its spread is not
    // known) and no bar; the frontier over them is still a step.
    const html = await (await report(await qwenSweep())).text();
    const ttft = html.slice(html.indexOf('data-chart="sweep-ttft"'));
    const svg = ttft.slice(0, ttft.indexOf("</svg>"));
    expect(svg).not.toContain('class="interval"');
    for (const c of ["c1", "c2", "c4"]) expect(ttft).toMatch(new RegExp(`<tr><td>${c}</td><td[^>]*>1</td>`));
    expect(ttft).not.toMatch(/×\d/);
    expect(ttft).toContain("one run");
    const line = ttft.match(/<polyline class="mark"[^>]* points="([^"]+)"/)![1];
    const pts = line.split(" ").map((p) => p.split(",").map(Number));
    for (let i = 1; i < pts.length; i++)
      expect(pts[i][0] === pts[i - 1][0] || pts[i][1] === pts[i - 1][1]).toBe(true);
  });

  it("draws repeated runs as one point at aiperf's median with its min – max, and the frontier as a step", async () => {
    // One configuration at c1, c4 three times and c16 (test/generators/aiperf.mjs: the records and
    // the summary aiperf writes for exactly them, a server slowing down under load).
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sweep-repeats-"));
    const files: Array<{ name: string; path: string }> = [];
    const ttftP50: number[] = [];
    for (const [i, [c, seed]] of [
      [1, 1],
      [4, 41],
      [4, 42],
      [4, 43],
      [16, 161],
    ].entries()) {
      const dir = `trial${i}_c${c}`;
      const g = await generateAiperfRun(path.join(tmp, dir), {
        records: 40,
        seed,
        concurrency: c,
        csv: false,
        loadSlowdown: 0.03,
      });
      if (c === 4) ttftP50.push(JSON.parse(fs.readFileSync(g.summaryPath, "utf8")).time_to_first_token.p50);
      files.push(
        { name: `repeats/${dir}/profile_export.jsonl`, path: g.jsonlPath },
        { name: `repeats/${dir}/profile_export_aiperf.json`, path: g.summaryPath },
      );
    }
    const res = await upload(uploadRequest(files));
    expect(res.status).toBe(201);
    const id = ((await res.json()) as { sweep: { id: string } }).sweep.id;
    const html = await (await report(id)).text();
    fs.rmSync(tmp, { recursive: true, force: true });
    const ttft = html.slice(html.indexOf('data-chart="sweep-ttft"'));
    // TTFT against request throughput: c4's three runs are one row, at the median of aiperf's own
    // p50 TTFTs, with their min – max.
    const sorted = [...ttftP50].sort((a, b) => a - b);
    const row = ttft.match(/<tr><td>c4 ×3<\/td>(.*?)<\/tr>/)![1];
    const cells = [...row.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells[0]).toBe("3");
    expect(cells[3]).toBe(formatNumber(sorted[1], 3));
    expect(cells[4]).toBe(`${formatNumber(sorted[0], 3)} – ${formatNumber(sorted[2], 3)}`);
    // The single runs say so, and the repeated point is drawn with its bars.
    expect(ttft).toMatch(/<tr><td>c1<\/td><td[^>]*>1<\/td>/);
    expect(ttft).toContain("one run");
    expect((ttft.slice(0, ttft.indexOf("</svg>")).match(/class="interval"/g) ?? []).length).toBe(1);
    expect(ttft).toContain("repeated runs of one load are one point at their median");
    // The frontier is a step: each of its segments is horizontal or vertical.
    const line = ttft.match(/<polyline class="mark"[^>]* points="([^"]+)"/)![1];
    const pts = line.split(" ").map((p) => p.split(",").map(Number));
    expect(pts.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < pts.length; i++)
      expect(pts[i][0] === pts[i - 1][0] || pts[i][1] === pts[i - 1][1]).toBe(true);
  });
});
