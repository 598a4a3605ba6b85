import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { apiUpload, gotoHydrated, useAppAndBrowser } from "./harness";

const FIX = path.resolve(__dirname, "../fixtures/compare");

async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [dl] = await Promise.all([page.waitForEvent("download"), click()]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "runlens-dl-")), dl.suggestedFilename());
  await dl.saveAs(file);
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(file) };
}

describe("compare two TensorRT-LLM runs", () => {
  const t = useAppAndBrowser();
  let a: string;
  let b: string;

  beforeAll(async () => {
    const up = (dir: string, name: string) =>
      apiUpload(
        t.app.url,
        [
          { path: path.join(FIX, dir, "perf_metrics-0.jsonl") },
          { path: path.join(FIX, dir, "extra-llm-api-config.yml") },
        ],
        { name },
      );
    a = (await up("run-a", "main baseline")).id;
    b = (await up("run-b", "branch run")).id;
  });

  it("opens from a share link, switches statistic and baseline, and a copied link rebuilds the view", async () => {
    const context = await t.browser.newContext({
      permissions: ["clipboard-read", "clipboard-write"],
      acceptDownloads: true,
    });
    const page = await context.newPage();
    await gotoHydrated(page, `${t.app.url}/inference?UnofficialRuns=${a},${b}`);
    await page.waitForURL(/\/compare\?runs=/);
    const table = page.getByTestId("delta-table");
    await expect.poll(() => table.textContent()).toContain("branch run");
    // enable_iter_perf_stats is on in the branch only: the doctor refuses the pair until it is accepted.
    const doctor = page.getByTestId("comparability");
    expect(await doctor.locator('[data-reason="collectors"]').textContent()).toContain(
      "enable_iter_perf_stats off → enable_iter_perf_stats on",
    );
    await doctor.getByTestId("comparability-accept").click();
    await page.waitForURL(/allowDifferent=collectors/);
    await expect.poll(() => doctor.getAttribute("data-verdict")).toBe("comparable with caveats");
    // Queue p50: 20 ms → 10 ms, −50 %.
    expect(await table.locator('tr[data-metric="segment:ctx_queue"]').textContent()).toContain("−50%");

    await page.getByTestId("stat-picker").selectOption("p90");
    await page.waitForURL(/stat=p90/);
    await page.getByTestId(`baseline-${b}`).check();
    await page.waitForURL(new RegExp(`baseline=${b}`));
    await expect
      .poll(() => page.getByRole("heading", { name: /Deltas against the baseline at p90/ }).count())
      .toBe(1);
    // Decode p90 with the branch as baseline: 190 ms → 380 ms for the main run, +100 %, worse.
    const decode = table.locator('tr[data-metric="segment:decode"]');
    await expect.poll(() => decode.textContent()).toContain("+100%");
    expect(await decode.locator('td[data-verdict="worse"]').count()).toBe(1);

    await page.getByTestId("copy-link").click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain("stat=p90");

    // Export the time-breakdown chart as PNG and CSV.
    const figure = page.locator('figure[data-chart="compare-segments-p90"]');
    const png = await download(page, () => figure.getByRole("button", { name: "PNG" }).click());
    expect(png.name).toBe("compare-segments-p90.png");
    expect(png.bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect(png.bytes.length).toBeGreaterThan(1000);
    const csv = await download(page, () => figure.getByRole("button", { name: "CSV" }).click());
    const lines = csv.bytes.toString("utf8").trim().split(/\r\n/);
    expect(lines[0]).toBe("run,run_id,segment,p90_ms");
    const decodeLine = lines.find((l) => l.startsWith(`main baseline,${a},decode,`));
    expect(Number(decodeLine?.split(",")[3])).toBeCloseTo(380, 6);
    const deltas = await download(page, () => page.getByRole("button", { name: "CSV" }).first().click());
    expect(deltas.name).toBe("compare-deltas-p90.csv");
    await context.close();

    const fresh = await t.browser.newContext();
    const other = await fresh.newPage();
    await gotoHydrated(other, copied);
    await expect.poll(() => other.getByTestId("delta-table").textContent()).toContain("branch run");
    expect(await other.getByTestId("stat-picker").inputValue()).toBe("p90");
    expect(await other.getByTestId(`baseline-${b}`).isChecked()).toBe(true);
    await expect
      .poll(() => other.getByTestId("delta-table").locator('tr[data-metric="segment:decode"]').textContent())
      .toContain("+100%");
    await fresh.close();
  });

  it("adds runs to a comparison from the runs table and from a run page", async () => {
    const context = await t.browser.newContext();
    const page = await context.newPage();
    await gotoHydrated(page, t.app.url);
    await page.getByTestId(`select-${a}`).check();
    await page.getByTestId(`select-${b}`).check();
    await page.getByTestId("compare-selected").click();
    await page.waitForURL(new RegExp(`/compare\\?runs=${a}(,|%2C)${b}`));
    await expect.poll(() => page.getByTestId("compare-runs").textContent()).toContain("branch run");

    await gotoHydrated(page, `${t.app.url}/runs/${a}`);
    await page.getByTestId("add-to-compare").click();
    await gotoHydrated(page, `${t.app.url}/runs/${b}`);
    await page.getByTestId("add-to-compare").click();
    await page.getByTestId("open-compare").click();
    await page.waitForURL(/\/compare\?runs=/);
    await expect.poll(() => page.getByTestId("delta-table").textContent()).toContain("main baseline");
    await context.close();
  });

  it("renames and labels a run from its page; the runs table filters by the label", async () => {
    const context = await t.browser.newContext();
    const page = await context.newPage();
    await gotoHydrated(page, `${t.app.url}/runs/${b}`);
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("Run name").fill("branch run v2");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByTestId("run-name").textContent()).toContain("branch run v2");
    await page.getByRole("button", { name: "+ label" }).click();
    await page.getByLabel("New labels, comma separated").fill("candidate, h200");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expect.poll(() => page.getByRole("link", { name: "candidate" }).count()).toBe(1);
    const stored = await (await fetch(`${t.app.url}/api/runs/${b}`)).json();
    expect(stored).toMatchObject({ name: "branch run v2", labels: ["candidate", "h200"] });

    await gotoHydrated(page, t.app.url);
    await page.getByTestId("label-filter").fill("candidate");
    await page.waitForURL(/label=candidate/);
    await expect.poll(() => page.getByTestId("runs-table").textContent()).toContain("branch run v2");
    expect(await page.getByTestId("runs-table").textContent()).not.toContain("main baseline");
    await context.close();
  });
});

describe("editing on a server with an API token", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_API_TOKEN: "s3cret" } });

  it("asks for the token once on 401, keeps it, and retries", async () => {
    const form = new FormData();
    form.append(
      "file",
      new Blob([fs.readFileSync(path.join(FIX, "run-a/perf_metrics-0.jsonl"))]),
      "perf_metrics-0.jsonl",
    );
    form.append("name", "guarded");
    const res = await fetch(`${t.app.url}/api/runs`, {
      method: "POST",
      body: form,
      headers: { Authorization: "Bearer s3cret" },
    });
    const { id } = await res.json();
    const context = await t.browser.newContext();
    const page = await context.newPage();
    await gotoHydrated(page, `${t.app.url}/runs/${id}`);
    await page.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("Run name").fill("guarded renamed");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByLabel("API token").fill("s3cret");
    await page.getByRole("button", { name: "Save and retry" }).click();
    await expect.poll(() => page.getByTestId("run-name").textContent()).toContain("guarded renamed");
    expect(await page.evaluate(() => localStorage.getItem("runlens-api-token"))).toBe("s3cret");
    await context.close();
  });
});
