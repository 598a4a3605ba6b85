/**
 * The sweep page in a real browser: the real qwen c1/c2/c4 aiperf runs uploaded as one folder,
 * the statistic switched and an SLO set, then a reload rebuilds the same view; and eight sweeps
 * overlaid (seven generated with test/generators/aiperf.mjs, a server slowing down under load).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { apiUploadSweep, gotoHydrated, settleLayout, shot, useAppAndBrowser } from "./harness";

const FIX = path.resolve(__dirname, "../fixtures/aiperf");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sweeps-e2e-"));

const qwenFiles = [1, 2, 4].flatMap((c) =>
  ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"].map((f) => ({
    name: `qwen/qwen-c${c}/${f}`,
    path: path.join(FIX, `qwen-c${c}__${f}`),
  })),
);

describe("sweep page", () => {
  const t = useAppAndBrowser();
  let qwen: string;
  const others: string[] = [];

  beforeAll(async () => {
    qwen = await apiUploadSweep(t.app.url, qwenFiles);
    for (let k = 0; k < 7; k++) {
      const files = [];
      for (const c of [1, 4, 16, 64]) {
        const g = await generateAiperfRun(path.join(tmp, `cfg${k}`, `c${c}`), {
          records: 60,
          seed: 100 + k * 10 + c,
          concurrency: c,
          csv: false,
          gpus: 1 + (k % 2),
          loadSlowdown: 0.02 + 0.01 * k,
        });
        files.push(
          { name: `cfg${k}/cfg${k}_c${c}/profile_export.jsonl`, path: g.jsonlPath },
          { name: `cfg${k}/cfg${k}_c${c}/profile_export_aiperf.json`, path: g.summaryPath },
          { name: `cfg${k}/cfg${k}_c${c}/gpu_telemetry_export.jsonl`, path: g.gpuPath },
        );
      }
      others.push(await apiUploadSweep(t.app.url, files, { name: `config ${String.fromCharCode(65 + k)}` }));
    }
  });
  afterAll(async () => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("switches the statistic, sets an SLO, and a reload shows the same view", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/sweeps/${qwen}`);
    const table = page.getByTestId("sweep-table");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(3);
    // Every chart is drawn: three points labelled c1, c2, c4 on each.
    for (const chart of ["interactivity", "latency", "ttft"]) {
      const fig = page.locator(`figure[data-chart="sweep-${chart}"]`);
      expect(await fig.getAttribute("data-chart-empty")).toBeNull();
      // The plot lays out after the first paint: wait for its marks.
      await expect.poll(() => fig.locator(".recharts-scatter-symbol").count()).toBeGreaterThanOrEqual(3);
      expect(await fig.locator(".recharts-label-list").first().textContent()).toMatch(/c1/);
      // Haloed in the card colour: another sweep's line or point under a label never overprints it.
      const label = fig.locator(".recharts-label-list text").first();
      expect(await label.evaluate((t) => [t.getAttribute("paint-order"), t.getAttribute("stroke")])).toEqual([
        "stroke",
        "var(--card)",
      ]);
    }
    // aiperf's own p50 TTFT of qwen c1 (its summary) is 30.668547999999998 ms.
    const c1Ttft = table.locator("tbody tr").first().locator('[data-stat="ttftMs"]');
    expect(await c1Ttft.textContent()).toBe("30.7 ms");
    await page.getByLabel("Statistic").selectOption("p99");
    await page.waitForURL(/stat=p99/);
    // …and its p99 34.344268879999994 ms.
    await expect.poll(() => c1Ttft.textContent()).toBe("34.3 ms");

    await page.getByLabel("TTFT SLO mode").selectOption("p99");
    await page.getByLabel("TTFT SLO threshold (ms)").fill("60");
    await page.getByRole("button", { name: "Apply SLO" }).click();
    await page.waitForURL(/slo=ttft%3Ap99%3A60|slo=ttft:p99:60/);
    const goodput = page.getByTestId("sweep-goodput");
    // TTFT p99 of the recorded requests: c1 32.8 ms, c2 57.8 ms, c4 70.7 ms: c2 is the highest meeting it.
    await expect.poll(() => goodput.getByTestId("highest-meeting").textContent()).toContain("c2");
    const before = {
      ttft: await c1Ttft.textContent(),
      goodput: await goodput.getByTestId("highest-meeting").textContent(),
    };
    await shot(page, "sweep-page.png");

    await page.reload();
    await expect.poll(() => table.locator("tbody tr").count()).toBe(3);
    expect(await page.getByLabel("Statistic").inputValue()).toBe("p99");
    expect(await page.getByLabel("TTFT SLO threshold (ms)").inputValue()).toBe("60");
    expect(await c1Ttft.textContent()).toBe(before.ttft);
    await expect.poll(() => goodput.getByTestId("highest-meeting").textContent()).toBe(before.goodput);
    await page.close();
  });

  it("at 1440 px no point label overlaps another: two similar sweeps overlaid and a run marked", async () => {
    const runs = await (await fetch(`${t.app.url}/api/sweeps/${others[1]}`)).json();
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    // Configs A and B differ by 1 % slowdown per request in flight: their points nearly coincide,
    // and a run of B marked on top of them.
    await gotoHydrated(page, `${t.app.url}/sweeps/${others[0]}?with=${others[1]}&run=${runs.runs[1].id}`);
    for (const chart of ["interactivity", "latency", "ttft"]) {
      const fig = page.locator(`figure[data-chart="sweep-${chart}"]`);
      const labels = fig.locator(".recharts-label-list text");
      // Both sweeps' four loads and the marked run: nine labels.
      await expect.poll(() => labels.count(), { timeout: 60_000 }).toBe(9);
      await settleLayout(fig);
      const boxes = await labels.evaluateAll((ts) =>
        ts.map((t) => {
          const r = t.getBoundingClientRect();
          return { text: t.textContent ?? "", x: r.x, y: r.y, w: r.width, h: r.height };
        }),
      );
      const overlapping: string[] = [];
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i], boxes[j]];
          const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
          const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
          if (w > 0.5 && h > 0.5)
            overlapping.push(`${a.text} × ${b.text} (${w.toFixed(1)} × ${h.toFixed(1)} px)`);
        }
      expect(overlapping, chart).toEqual([]);
      // No label covers a point's marker, its own or another's (of either sweep, or the star).
      const marks = await fig.locator(".recharts-scatter-symbol .recharts-symbols").evaluateAll((ps) =>
        ps.map((p) => {
          const r = p.getBoundingClientRect();
          return { x: r.x, y: r.y, w: r.width, h: r.height };
        }),
      );
      expect(marks.length, chart).toBeGreaterThanOrEqual(9);
      const covering: string[] = [];
      for (const b of boxes)
        for (const m of marks) {
          const w = Math.min(b.x + b.w, m.x + m.w) - Math.max(b.x, m.x);
          const h = Math.min(b.y + b.h, m.y + m.h) - Math.max(b.y, m.y);
          if (w > 0.5 && h > 0.5)
            covering.push(`${b.text} over the marker at (${m.x.toFixed(0)}, ${m.y.toFixed(0)})`);
        }
      expect(covering, chart).toEqual([]);
      // Every label is drawn whole inside its figure.
      const fb = (await fig.boundingBox())!;
      for (const b of boxes)
        expect(b.x >= fb.x && b.x + b.w <= fb.x + fb.width, `${chart} ${b.text}`).toBe(true);
    }
    await shot(page, "sweep-labels-1440.png");
    await page.close();
  });

  it("overlays eight sweeps from /compare?sweeps= and reads them at equal interactivity", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(
      page,
      `${t.app.url}/compare?sweeps=${[others[0], ...others.slice(1), qwen].join(",")}`,
    );
    await page.waitForURL(/\/sweeps\/[^?]+\?with=/);
    const picker = page.getByTestId("overlay-picker");
    await expect.poll(() => picker.getByText(/config [A-G]|qwen/).count()).toBe(8);
    const sentence = page.getByTestId("frontier-sentence");
    await expect
      .poll(async () => ((await sentence.textContent()) ?? "").match(/gives/g)?.length ?? 0)
      .toBe(8);
    // Each change against the first sweep, then what the spread rule says (single runs here: not known).
    expect(await sentence.textContent()).toMatch(/\(([−+])\d+%, spread not known: /);
    await shot(page, "sweep-overlay-8.png");

    // A single run marked on the charts, as InferenceX overlays an unofficial run.
    const runs = await (await fetch(`${t.app.url}/api/sweeps/${qwen}`)).json();
    await page.getByLabel("Mark a run by id").fill(runs.runs[2].id);
    await page.getByRole("button", { name: "Mark" }).click();
    await page.waitForURL(/run=/);
    await expect.poll(() => picker.textContent()).toContain("★");
    await page.close();
  });
});
