/**
 * The Latency view's slowest requests open their request: a row's request ID is a button (reached
 * with Tab, opened with Enter) that shows the request's detail below the table, the one the
 * timeline opens by the same id; Back closes it. A list stored before rows carried ids
 * (chart version 1, written into the server's SQLite file as an older Runlens wrote it) keeps its
 * rows plain and says once that a re-ingest makes them open. Screenshots go to
 * RUNLENS_SCREENSHOT_DIR.
 */
import path from "node:path";
import Database from "better-sqlite3";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { requestListSchema, type RequestList } from "@/lib/api/aiperf-requests";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";
import { formatMs } from "@/lib/format-number";
import { fixture } from "../helpers/test-app";
import { apiUpload, DEVICE_VIEWPORTS, forEachLook, gotoHydrated, shot, useAppAndBrowser } from "./harness";

describe("slowest requests open their request", () => {
  const t = useAppAndBrowser();

  /** The TTFT list the view shows, once the run's drill-down is stored. */
  async function ttftList(id: string): Promise<RequestList> {
    let list: RequestList | null = null;
    await expect
      .poll(
        async () => {
          const res = await fetch(
            `${t.app.url}/api/runs/${id}/aiperf/requests?sort=ttft&order=desc&limit=10`,
          );
          if (res.status !== 200) return false;
          list = requestListSchema.parse(await res.json());
          return true;
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    return list!;
  }

  const detailValue = (page: Page, term: string) =>
    page
      .getByTestId("slowest-request-detail")
      .locator("dt", { hasText: new RegExp(`^${term}$`) })
      .locator("+ dd");

  it("a row's request ID opens that request's detail, from the keyboard too; Back closes it", async () => {
    const run = await apiUpload(t.app.url, [
      { path: fixture("aiperf/qwen-c4__profile_export.jsonl"), name: "profile_export.jsonl" },
    ]);
    const list = await ttftList(run.id);
    const [first, second] = list.rows;
    expect(first.rid).not.toBeNull();
    expect(second.rid).not.toBeNull();

    await forEachLook(
      t.browser,
      `${t.app.url}/runs/${run.id}?view=latency`,
      async (page, { width, scheme }) => {
        const table = page.getByTestId("slowest-requests");
        await table.waitFor({ timeout: 30_000 });
        const buttons = table.locator("tbody tr button[data-rid]");
        expect(await buttons.count()).toBe(list.rows.length);
        expect(await page.getByTestId("slowest-reingest").count()).toBe(0);

        // Clicked: the first row's request, by its id, with its own E2E.
        await buttons.first().click();
        const detail = page.getByTestId("slowest-request-detail");
        await detail.waitFor({ timeout: 15_000 });
        await expect
          .poll(() => detailValue(page, "end to end").textContent(), { timeout: 15_000 })
          .toBe(formatMs(first.e2eMs!));
        expect(await detailValue(page, "Request ID \\(sent as x_request_id\\)").textContent()).toBe(
          first.requestId,
        );
        // The link names the request by its own id (docs/http-api.md §A request's link).
        await expect.poll(() => new URL(page.url()).searchParams.get("rid")).toBe(first.requestId);
        expect(new URL(page.url()).searchParams.get("req")).toBeNull();
        expect(await buttons.first().getAttribute("aria-expanded")).toBe("true");
        await shot(page, `slowest-detail-${scheme}-${width}.png`, { settleMs: 400 });

        // From the keyboard: focus the second row's button, Enter opens it.
        await buttons.nth(1).focus();
        await page.keyboard.press("Enter");
        await expect
          .poll(() => detailValue(page, "Request ID \\(sent as x_request_id\\)").textContent(), {
            timeout: 15_000,
          })
          .toBe(second.requestId);
        expect(await detailValue(page, "end to end").textContent()).toBe(formatMs(second.e2eMs!));

        // Back steps to the first request, then closes the detail.
        await page.goBack();
        await expect
          .poll(() => detailValue(page, "Request ID \\(sent as x_request_id\\)").textContent())
          .toBe(first.requestId);
        await page.goBack();
        await expect.poll(() => detail.count()).toBe(0);
      },
      DEVICE_VIEWPORTS,
    );
  });

  it("a list stored before rows carried ids keeps its rows plain and says once that re-ingest opens them", async () => {
    const run = await apiUpload(t.app.url, [
      { path: fixture("aiperf/qwen-c4__profile_export.jsonl"), name: "profile_export.jsonl" },
    ]);
    await ttftList(run.id);
    const db = new Database(path.join(t.app.dataDir, "runlens.sqlite"));
    db.pragma("busy_timeout = 10000");
    try {
      const key = AIPERF_CHARTS.slowest.key;
      const row = db.prepare("select data from chart_data where run_id = ? and key = ?").get(run.id, key) as {
        data: string;
      };
      const payload = JSON.parse(row.data) as { reingestToOpen?: boolean; lists: Record<string, object[]> };
      delete payload.reingestToOpen;
      for (const rows of Object.values(payload.lists))
        for (const r of rows) delete (r as { rid?: number }).rid;
      db.prepare("update chart_data set data = ?, version = 1 where run_id = ? and key = ?").run(
        JSON.stringify(payload),
        run.id,
        key,
      );
    } finally {
      db.close();
    }
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=latency`);
    const table = page.getByTestId("slowest-requests");
    await table.waitFor({ timeout: 30_000 });
    expect(await table.locator("tbody tr").count()).toBeGreaterThan(0);
    expect(await table.locator("button, a").count()).toBe(0);
    const note = page.getByTestId("slowest-reingest");
    expect(await note.count()).toBe(1);
    expect(await note.textContent()).toContain(`re-ingest the run (POST /api/runs/${run.id}/reingest)`);
    await shot(page, "slowest-stored-without-ids-light-1440.png", { settleMs: 400 });
    await page.close();
  });
});
