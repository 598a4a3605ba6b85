/**
 * Every agent session is reachable from the Sessions view (docs/metrics.md §Agent sessions):
 * a Dynamo request trace of 3,000 sessions, more than the agent-sessions payload carries, says
 * how many more sessions there are, lists them a page at a time, and opens one from a later page.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { apiUpload, useAppAndBrowser } from "./harness";

const SESSIONS = 3_000;
const TURNS = 4;

describe("sessions view, every session by page", () => {
  const t = useAppAndBrowser();

  it("says how many more sessions, pages through them, and opens one", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-sessions-paged-"));
    const trace = dynamoRequestTrace({ requests: SESSIONS * TURNS, turns: TURNS, seed: 5 });
    fs.writeFileSync(path.join(dir, "dynamo-request-trace.jsonl"), trace.text);
    const run = await apiUpload(t.app.url, [{ path: path.join(dir, "dynamo-request-trace.jsonl") }], {
      name: "e2e agent sessions, paged",
    });
    fs.rmSync(dir, { recursive: true, force: true });

    const page = await t.browser.newPage();
    try {
      await page.goto(`${t.app.url}/runs/${run.id}?view=sessions`);
      await page.getByTestId("session-tree").waitFor({ timeout: 60_000 });
      const inTree = await page.getByTestId("session-node").count();
      const omitted = (await page.getByTestId("sessions-omitted").textContent()) ?? "";
      expect(omitted).toContain(`${(SESSIONS - inTree).toLocaleString("en-US")} more sessions`);

      const all = page.getByTestId("all-sessions");
      await all.getByRole("button", { name: /Show all sessions/ }).click();
      const label = all.getByTestId("all-sessions-page");
      await label.waitFor({ timeout: 60_000 });
      expect(await label.textContent()).toMatch(/^Page 1 of \d+ \(3,000 sessions\)$/);
      await all.getByRole("button", { name: "Next" }).click();
      await expect.poll(() => label.textContent(), { timeout: 60_000 }).toMatch(/^Page 2 of /);

      // A session from the second page opens in the detail.
      const row = all.locator("li[data-session]").first();
      const id = (await row.getAttribute("data-session"))!;
      await row.locator("button").click();
      await expect
        .poll(() => page.getByTestId("session-detail").textContent(), { timeout: 60_000 })
        .toContain(id);
    } finally {
      await page.close();
    }
  }, 300_000);
});
