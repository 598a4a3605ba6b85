/**
 * Run facts in the browser: a fact edited in the run header shows as edited and feeds the
 * Overview's per-GPU figures; the runs list sorts and filters by facts from the URL; SLOs set on
 * the Overview survive a reload.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useAppAndBrowser, gotoHydrated } from "./harness";

const FIX = path.resolve(__dirname, "../fixtures");

async function uploadQwen(url: string, c: number): Promise<string> {
  const form = new FormData();
  for (const f of ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"])
    form.append("file", new Blob([fs.readFileSync(path.join(FIX, `aiperf/qwen-c${c}__${f}`))]), `c${c}/${f}`);
  const res = await fetch(`${url}/api/runs`, { method: "POST", body: form });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe("run facts in the browser", () => {
  const t = useAppAndBrowser();

  it("edits a fact in the header, and sorts and filters the runs list by URL", async () => {
    const c1 = await uploadQwen(t.app.url, 1);
    await uploadQwen(t.app.url, 2);
    const c4 = await uploadQwen(t.app.url, 4);
    const page = await t.browser.newPage();

    await gotoHydrated(page, `${t.app.url}/runs/${c1}`);
    const gpus = page.locator('[data-testid="run-facts"] [data-fact="gpuCount"]');
    await expect.poll(() => gpus.getAttribute("title")).toBe("Source: GPU telemetry (1 distinct GPU)");
    await expect
      .poll(() => page.getByTestId("derived-gpus").textContent())
      .toContain("1 GPU · from GPU telemetry");
    await page.getByText("Edit run facts").click();
    await page.locator("#fact-input-gpuCount").fill("8");
    await page.getByRole("button", { name: "Save facts" }).click();
    await expect.poll(() => gpus.textContent()).toContain("8");
    expect(await gpus.textContent()).toContain("edited");
    expect(await gpus.getAttribute("title")).toBe("Source: edited");
    await expect.poll(() => page.getByTestId("derived-gpus").textContent()).toContain("8 GPUs · set by hand");

    // SLOs live in the URL: set one, reload, the same goodput shows.
    await page.getByLabel("TTFT SLO").selectOption("req");
    await page.getByLabel("TTFT threshold (ms)").fill("40");
    await page.getByRole("button", { name: "Apply SLOs" }).click();
    await page.waitForURL(/slo=ttft%3Areq%3A40|slo=ttft:req:40/);
    const share = await (async () => {
      await expect.poll(() => page.getByTestId("goodput-share").count()).toBe(1);
      return page.getByTestId("goodput-share").textContent();
    })();
    await page.reload();
    await expect.poll(() => page.getByTestId("goodput-share").textContent()).toBe(share);

    // The runs list, sorted and filtered through its URL.
    const names = () =>
      page
        .locator('[data-testid="runs-table"] tbody tr')
        .evaluateAll((rows) =>
          rows.map((r) => (r.querySelector('[data-col="concurrency"]')?.textContent ?? "").trim()),
        );
    await gotoHydrated(page, `${t.app.url}/?sort=concurrency&dir=desc`);
    await expect.poll(names).toEqual(["4", "2", "1"]);
    await page.getByTestId("sort-concurrency").click();
    await page.waitForURL(/dir=asc/);
    await expect.poll(names).toEqual(["1", "2", "4"]);
    await gotoHydrated(page, `${t.app.url}/?gpus=8`);
    await expect.poll(names).toEqual(["1"]);
    await gotoHydrated(page, `${t.app.url}/?concurrency=4`);
    await expect.poll(() => page.locator(`a[href="/runs/${c4}"]`).count()).toBe(1);
    await expect.poll(names).toEqual(["4"]);
    await page.close();
  });

  it("edits roles per row in the header: marked edited, kept on reload, restored by removing them all", async () => {
    const id = await uploadQwen(t.app.url, 2);
    const page = await t.browser.newPage();
    await gotoHydrated(page, `${t.app.url}/runs/${id}`);
    const roles = page.locator('[data-testid="run-facts"] [data-fact="roles"]');
    expect(await roles.count()).toBe(0);
    await page.getByText("Edit run facts").click();
    const editor = page.getByTestId("roles-editor");
    await editor.getByRole("button", { name: "Add role" }).click();
    await editor.getByLabel("Role 1 name").fill("prefill");
    await editor.getByLabel("Role 1 Workers").fill("2");
    await editor.getByLabel("Role 1 TP").fill("2");
    await editor.getByRole("button", { name: "Add role" }).click();
    await editor.getByLabel("Role 2 name").fill("decode");
    await editor.getByLabel("Role 2 TP").fill("4");
    await editor.getByLabel("Role 2 EP").fill("x");
    await page.getByRole("button", { name: "Save facts" }).click();
    await expect.poll(() => page.getByText("decode EP: a whole number").count()).toBe(1);
    await editor.getByLabel("Role 2 EP").fill("4");
    await page.getByRole("button", { name: "Save facts" }).click();
    await expect.poll(() => roles.textContent()).toContain("prefill ×2 (TP 2), decode (TP 4 · EP 4)");
    if (process.env.RUNLENS_SCREENSHOT_DIR)
      await page.screenshot({ path: path.join(process.env.RUNLENS_SCREENSHOT_DIR, "run-roles-edited.png") });
    expect(await roles.textContent()).toContain("edited");
    expect(await roles.getAttribute("title")).toBe("Source: edited");

    const api = await (await fetch(`${t.app.url}/api/runs/${id}`)).json();
    expect(api.facts.roles).toEqual({
      value: [
        { role: "prefill", count: 2, tp: 2, pp: null, ep: null, dp: null },
        { role: "decode", count: null, tp: 4, pp: null, ep: 4, dp: null },
      ],
      source: "edited",
      edited: true,
    });

    await page.reload();
    await expect.poll(() => roles.textContent()).toContain("prefill ×2 (TP 2)");
    await page.getByText("Edit run facts").click();
    await expect.poll(() => editor.getByLabel("Role 1 TP").inputValue()).toBe("2");
    await editor.getByRole("button", { name: "Remove role 2" }).click();
    await editor.getByRole("button", { name: "Remove role 1" }).click();
    await page.getByRole("button", { name: "Save facts" }).click();
    await expect.poll(() => roles.count()).toBe(0);
    await page.close();
  });
});
