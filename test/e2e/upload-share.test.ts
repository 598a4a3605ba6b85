import path from "node:path";
import { describe, expect, it } from "vitest";
import { useAppAndBrowser } from "./harness";

const FIX = path.resolve(__dirname, "../fixtures");

describe("upload through the page, share the link", () => {
  const t = useAppAndBrowser();

  it("uploads files from the drop zone, lands on the run, and the copied link opens it elsewhere", async () => {
    const context = await t.browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.goto(t.app.url);
    await page.getByLabel("Run name").fill("e2e upload");
    await page.getByLabel("Labels").fill("e2e, browser");
    await page
      .getByTestId("file-input")
      .setInputFiles([
        path.join(FIX, "aiperf/qwen-c4__profile_export.jsonl"),
        path.join(FIX, "aiperf/qwen-c4__profile_export_aiperf.json"),
      ]);
    await page.waitForURL(/\/runs\/[A-Za-z0-9_-]{22}$/, { timeout: 30_000 });
    await expect.poll(() => page.getByTestId("run-name").textContent()).toContain("e2e upload");

    await page.getByRole("tab", { name: "Files" }).click();
    await page.waitForURL(/view=files/);
    const table = page.getByTestId("files-table");
    await expect.poll(() => table.textContent()).toContain("aiperf per-request records");

    await page.getByTestId("copy-link").click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/\/runs\/[A-Za-z0-9_-]{22}\?view=files$/);
    await context.close();

    // A fresh browser context: no cookies, no storage, no cache.
    const fresh = await t.browser.newContext();
    const other = await fresh.newPage();
    await other.goto(copied);
    await expect.poll(() => other.getByTestId("run-name").textContent()).toContain("e2e upload");
    await expect
      .poll(() => other.getByTestId("files-table").textContent())
      .toContain("profile_export_aiperf.json");

    // The InferenceX-style link redirects to the same run.
    const id = new URL(copied).pathname.split("/").pop()!;
    await other.goto(`${t.app.url}/inference?UnofficialRun=${id}`);
    await other.waitForURL(new RegExp(`/runs/${id}$`));
    await expect.poll(() => other.getByTestId("run-name").textContent()).toContain("e2e upload");

    // The runs table lists it, with its labels.
    await other.goto(t.app.url);
    await expect.poll(() => other.getByTestId("runs-table").textContent()).toContain("e2e upload");
    expect(await other.getByTestId("runs-table").textContent()).toContain("browser");
    await fresh.close();
  });
});
