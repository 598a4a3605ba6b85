/**
 * Uncertainty on the Pareto front in a real browser (docs/metrics.md §Sweeps, "Repeated runs"):
 * three configurations uploaded as sweeps whose c4 point was run several times, generated with
 * test/generators/aiperf.mjs (aiperf's profile_export.jsonl and the summary aiperf writes for
 * exactly those records, a server slowing down under load). A's c4 was run three times, B's twice
 * (one run the same as one of A's), C's twice on two GPUs. The page draws each repeated c4 as one
 * point with bars on both axes, the frontier as a step, and reading the frontiers where every
 * sweep reads its c4 says B is within A's spread and C is not. The expected verdicts are worked
 * out here from the runs' own values as the API serves them, not from the page's code.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { apiUploadSweep, gotoHydrated, shot, useAppAndBrowser } from "./harness";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sweep-uncertainty-e2e-"));

interface Cfg {
  name: string;
  gpus: number;
  /** Runs per concurrency: the seed of each */
  runs: Array<{ c: number; seed: number }>;
}

const CONFIGS: Cfg[] = [
  {
    name: "config A",
    gpus: 1,
    runs: [
      { c: 1, seed: 11 },
      { c: 4, seed: 41 },
      { c: 4, seed: 42 },
      { c: 4, seed: 43 },
      { c: 16, seed: 161 },
    ],
  },
  {
    name: "config B",
    gpus: 1,
    runs: [
      { c: 1, seed: 12 },
      { c: 4, seed: 42 },
      { c: 4, seed: 44 },
      { c: 16, seed: 162 },
    ],
  },
  {
    name: "config C",
    gpus: 2,
    runs: [
      { c: 1, seed: 13 },
      { c: 4, seed: 45 },
      { c: 4, seed: 46 },
      { c: 16, seed: 163 },
    ],
  },
];

async function uploadConfig(url: string, cfg: Cfg): Promise<string> {
  const files = [];
  for (const [i, r] of cfg.runs.entries()) {
    // Each repeat is its own folder (trial<i>_c4): one run per folder, its load from the name.
    const dir = `trial${i}_c${r.c}`;
    const g = await generateAiperfRun(path.join(tmp, cfg.name, dir), {
      records: 60,
      seed: r.seed,
      concurrency: r.c,
      csv: false,
      gpus: cfg.gpus,
      loadSlowdown: 0.03,
    });
    for (const [file, p] of [
      ["profile_export.jsonl", g.jsonlPath],
      ["profile_export_aiperf.json", g.summaryPath],
      ["gpu_telemetry_export.jsonl", g.gpuPath],
    ])
      files.push({ path: p, name: `${cfg.name}/${dir}/${file}` });
  }
  return apiUploadSweep(url, files, { name: cfg.name });
}

interface ApiRun {
  concurrency: number | null;
  points: { p50: { tokPerSPerUser: number; outputTokPerSPerGpu: number } };
}

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** A load's runs as the API serves them: interactivity (x) and tok/s/GPU (y) at p50. */
function at(runs: ApiRun[], c: number) {
  const rs = runs.filter((r) => r.concurrency === c);
  const xs = rs.map((r) => r.points.p50.tokPerSPerUser);
  const ys = rs.map((r) => r.points.p50.outputTokPerSPerGpu);
  return { n: rs.length, x: median(xs), lo: Math.min(...ys), hi: Math.max(...ys), y: median(ys) };
}

/** The segments of an SVG path's "M x,y L x,y …" in screen coordinates. */
function corners(d: string): Array<[number, number]> {
  return [...d.matchAll(/[ML]\s*(-?[\d.]+)[ ,](-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

describe("uncertainty on the Pareto front", () => {
  const t = useAppAndBrowser();
  const ids: string[] = [];
  const runs: ApiRun[][] = [];

  beforeAll(async () => {
    for (const cfg of CONFIGS) ids.push(await uploadConfig(t.app.url, cfg));
    for (const id of ids)
      runs.push(((await (await fetch(`${t.app.url}/api/sweeps/${id}`)).json()) as { runs: ApiRun[] }).runs);
  });
  afterAll(async () => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("draws repeated runs as one point with bars, the frontier as a step, and says who is within whose spread", async () => {
    expect(runs.map((r) => r.length)).toEqual([5, 4, 4]);
    const c4 = runs.map((r) => at(r, 4));
    const c16 = runs.map((r) => at(r, 16));
    expect(c4.map((p) => p.n)).toEqual([3, 2, 2]);
    // Read where every sweep's step gives its c4: above every c16's interactivity, at or below every c4's.
    const lo = Math.max(...c16.map((p) => p.x));
    const hi = Math.min(...c4.map((p) => p.x));
    expect(lo).toBeLessThan(hi);
    const readAt = Number(((lo + hi) / 2).toFixed(2));
    const overlap = (a: (typeof c4)[number], b: (typeof c4)[number]) => a.lo <= b.hi && b.lo <= a.hi;
    // B shares a run with A: their ranges overlap. C on two GPUs gives half the tok/s/GPU: apart.
    expect(overlap(c4[0], c4[1])).toBe(true);
    expect(overlap(c4[0], c4[2])).toBe(false);

    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/compare?sweeps=${ids.join(",")}`);
    await page.waitForURL(/\/sweeps\/[^?]+\?with=/);
    const fig = page.locator('figure[data-chart="sweep-interactivity"]');
    // Drawn marks (the frontier's corners are symbols drawn as nothing).
    const marks = fig.locator(".recharts-scatter-symbol .recharts-symbols");
    await expect.poll(() => marks.count()).toBeGreaterThanOrEqual(9);
    // One point per load per sweep: 3 + 3 + 3 marks, not 13 runs.
    expect(await marks.count()).toBe(9);
    // The first sweep's labels (the only ones drawn with three overlaid) name the repeats, each
    // on one line (its words joined by a no-break space, so recharts does not wrap them).
    const labels = await fig.locator(".recharts-label-list text").allTextContents();
    expect(labels).toEqual(["c1", "c4\u00a0×3", "c16"]);
    // Each drawn as one text, never broken into lines (tspans).
    expect(await fig.locator(".recharts-label-list text tspan").count()).toBe(0);
    // Three repeated points, each with a bar on x and one on y; single runs have none.
    expect(await fig.locator(".recharts-errorBars .recharts-errorBar").count()).toBe(6);

    // The frontier is a step: every segment of its line is horizontal or vertical.
    const lines = fig.locator(".recharts-scatter-line path.recharts-curve");
    expect(await lines.count()).toBe(3);
    for (const d of await lines.evaluateAll((ps) => ps.map((p) => p.getAttribute("d") ?? ""))) {
      const pts = corners(d);
      expect(pts.length).toBe(5);
      for (let i = 1; i < pts.length; i++) {
        const [dx, dy] = [pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]];
        expect(Math.min(Math.abs(dx), Math.abs(dy))).toBeLessThan(0.01);
      }
    }

    await page.getByLabel("Interactivity (tok/s/user)").fill(String(readAt));
    await page.waitForURL(/at=/);
    const sentence = page.getByTestId("frontier-sentence");
    const verdicts = sentence.getByTestId("spread-verdict");
    await expect.poll(() => verdicts.count()).toBe(2);
    expect(await verdicts.evaluateAll((v) => v.map((e) => e.getAttribute("data-verdict")))).toEqual([
      "within",
      "apart",
    ]);
    const text = (await sentence.textContent()) ?? "";
    expect(text).toContain("within each other's run-to-run spread: no winner here");
    expect(text).toContain("outside each other's run-to-run spread: config A wins here");
    // Each reading names the point read and its runs' range (A's c4 median of three).
    expect(text).toContain("at c4 ×3 (runs");
    // At the sweep table's decimals (tok/s/GPU at 2: 50.08, not 50.1 or 50), its runs' range too.
    const two = (v: number) =>
      v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(text).toContain(
      `gives ${two(c4[0].y)} tok/s/GPU at c4 ×3 (runs ${two(c4[0].lo)}–${two(c4[0].hi)})`,
    );

    await expect.poll(() => page.locator("figure[data-pending]").count()).toBe(0);
    await shot(page, "sweep-uncertainty-1440-light.png");
    await page.close();
    if (process.env.RUNLENS_SCREENSHOT_DIR)
      for (const [w, scheme] of [
        [1440, "dark"],
        [390, "light"],
        [390, "dark"],
      ] as const) {
        const p = await t.browser.newPage({ viewport: { width: w, height: 900 }, colorScheme: scheme });
        await gotoHydrated(p, `${t.app.url}/compare?sweeps=${ids.join(",")}`);
        await p.waitForURL(/\/sweeps\/[^?]+\?with=/);
        await p.getByLabel("Interactivity (tok/s/user)").fill(String(readAt));
        await p.waitForURL(/at=/);
        await expect.poll(() => p.getByTestId("spread-verdict").count()).toBe(2);
        await expect
          .poll(() => p.getByTestId("frontier-sentence").textContent())
          .toContain(`at least ${two(readAt)} `);
        await expect.poll(() => p.locator("figure[data-pending]").count()).toBe(0);
        await shot(p, `sweep-uncertainty-${w}-${scheme}.png`);
        await p.close();
      }
    // Three sweeps uploaded and five page loads: past the default limit on a loaded machine.
  }, 300_000);
});
