/**
 * Sweeps made and changed in the browser: "Make sweep" from the runs list, renaming a sweep,
 * removing a run from it (the run stays), the goodput chart's log concurrency axis in the URL,
 * and the sweep's offline report saved from its button and opened from disk with every request
 * refused. The runs are the real qwen c1/c2/c4 aiperf captures, uploaded one by one.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gotoHydrated, openOffline, useAppAndBrowser, shot } from "./harness";

const FIX = path.resolve(__dirname, "../fixtures/aiperf");

async function uploadQwen(url: string, c: number): Promise<string> {
  const form = new FormData();
  for (const f of ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"])
    form.append("file", new Blob([fs.readFileSync(path.join(FIX, `qwen-c${c}__${f}`))]), `c${c}/${f}`);
  const res = await fetch(`${url}/api/runs`, { method: "POST", body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("making and changing a sweep in the browser", () => {
  const t = useAppAndBrowser();

  it("makes a sweep from the runs list, renames it, removes a run, and saves its report", async () => {
    const ids = [];
    for (const c of [1, 2, 4]) ids.push(await uploadQwen(t.app.url, c));
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/`);
    for (const id of ids) await page.getByTestId(`select-${id}`).check();
    await page.getByTestId("make-sweep").click();
    await page.getByLabel("Sweep name").fill("qwen by hand");
    await page.getByRole("button", { name: "Create sweep" }).click();
    await page.waitForURL(/\/sweeps\/[A-Za-z0-9_-]+/);
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const sweepId = new URL(page.url()).pathname.split("/").pop()!;
    const table = page.getByTestId("sweep-table");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(3);
    await expect.poll(() => page.locator("h1").textContent()).toContain("qwen by hand");

    // Rename: the heading and the API agree, and a reload keeps it.
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("Sweep name").fill("qwen 0.6B, RTX 6000");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.locator("h1").textContent()).toContain("qwen 0.6B, RTX 6000");
    await page.reload();
    await expect.poll(() => page.locator("h1").textContent()).toContain("qwen 0.6B, RTX 6000");
    expect((await (await fetch(`${t.app.url}/api/sweeps/${sweepId}`)).json()).name).toBe(
      "qwen 0.6B, RTX 6000",
    );

    // Remove c2: two points left; the run itself stays.
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    await expect.poll(() => table.locator("tbody tr").count()).toBe(3);
    await table.locator(`tr[data-run="${ids[1]}"]`).getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => table.locator("tbody tr").count()).toBe(2);
    const left = (await (await fetch(`${t.app.url}/api/sweeps/${sweepId}`)).json()).runs.map(
      (r: { id: string }) => r.id,
    );
    expect(left).toEqual([ids[0], ids[2]]);
    expect((await fetch(`${t.app.url}/api/runs/${ids[1]}`)).status).toBe(200);

    // Goodput with a log concurrency axis, kept in the URL.
    await page.getByLabel("TTFT SLO mode").selectOption("p99");
    await page.getByLabel("TTFT SLO threshold (ms)").fill("60");
    await page.getByRole("button", { name: "Apply SLO" }).click();
    await page.waitForURL(/slo=/);
    const logx = page.getByLabel("log concurrency axis");
    await logx.check();
    // Both the SLO and the log axis in the URL before the reload reads it back.
    await page.waitForURL((u) => u.searchParams.has("slo") && u.searchParams.get("glogx") === "true");
    await page.reload();
    await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    // The reloaded page reads the axis back from the URL once hydrated: a loaded machine takes a while.
    await expect
      .poll(() => page.getByLabel("log concurrency axis").isChecked(), { timeout: 30_000 })
      .toBe(true);
    const goodput = page.locator('[data-testid="sweep-goodput"] figure[data-chart]');
    // Drawn once the goodput of the reloaded page's SLO has arrived.
    await expect.poll(() => goodput.getAttribute("data-chart-empty"), { timeout: 30_000 }).toBeNull();
    await expect
      .poll(() => goodput.locator(".recharts-line-dot, .recharts-dot").count())
      .toBeGreaterThanOrEqual(2);
    await shot(page, "sweep-goodput-logx.png");

    // The report button saves the page's view as one file that opens offline with every chart drawn.
    const link = page.getByTestId("export-sweep-report");
    expect(await link.getAttribute("href")).toMatch(/stat=p50&basis=output&slo=ttft%3Ap99%3A60/);
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    expect(download.suggestedFilename()).toBe("qwen-0.6B-RTX-6000-sweep-report.html");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sweep-report-")), "report.html");
    await download.saveAs(file);

    const {
      context,
      page: offline,
      attempted,
    } = await openOffline(t.browser, file, { width: 900, height: 1200 });
    expect(attempted).toEqual([]);
    const figures = offline.locator("figure[data-chart]");
    expect(await figures.evaluateAll((els) => els.map((e) => e.getAttribute("data-chart")))).toEqual([
      "sweep-interactivity",
      "sweep-latency",
      "sweep-ttft",
      "sweep-goodput",
    ]);
    for (let i = 0; i < 4; i++) {
      const fig = figures.nth(i);
      expect(await fig.getAttribute("data-drawn")).toBe("true");
      expect(await fig.locator("svg .mark").count()).toBeGreaterThan(0);
      const box = await fig.locator("svg").boundingBox();
      expect(box!.width).toBeGreaterThan(300);
      expect(box!.height).toBeGreaterThan(100);
    }
    expect(await offline.locator("h1").textContent()).toBe("Sweep: qwen 0.6B, RTX 6000");
    await shot(offline, "sweep-report.png");
    await context.close();
    await page.close();
  });
});
