/**
 * A request's link by its own id (docs/http-api.md §A request's link): `?rid=` opens the
 * request's drill-down, found by TensorRT-LLM's `disagg_request_id` or aiperf's `x_request_id`
 * as the producers wrote them (test/generators/trtllm.mjs, test/generators/aiperf.mjs); the page's
 * own links write `rid`; an id no request carries says so in words. Screenshots go to
 * RUNLENS_SCREENSHOT_DIR.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { requestDetailSchema } from "@/lib/api/trtllm-charts";
import { trtllmRequestTitle } from "@/lib/metrics/trtllm-request-name";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import {
  apiUpload,
  DEVICE_VIEWPORTS,
  forEachLook,
  gotoHydrated,
  shot,
  uploadGeneratedTrtllm,
  useAppAndBrowser,
} from "./harness";

describe("a request's link by its own id", () => {
  const t = useAppAndBrowser();

  it("opens a TensorRT-LLM request by its disagg_request_id, and the page's own links write rid", async () => {
    const run = await uploadGeneratedTrtllm(
      t.app.url,
      { mode: "disaggregated", requests: 120, seed: 4 },
      { name: "e2e request link" },
    );
    // The generator's disagg server numbers its requests 1…n; a log line would show 77.
    const detailOf = async (idx: number) =>
      requestDetailSchema.parse(
        await (await fetch(`${t.app.url}/api/runs/${run.id}/trtllm/requests/${idx}`)).json(),
      );
    const found = (await (await fetch(`${t.app.url}/api/runs/${run.id}/requests/by-id?rid=77`)).json()) as {
      position: number;
    };
    const opened = await detailOf(found.position);
    expect(opened.disaggRequestId).toBe("77");

    // A bare link names no view: the Breakdown's waterfall shows the request.
    await forEachLook(
      t.browser,
      `${t.app.url}/runs/${run.id}?rid=77`,
      async (page, { width, scheme }) => {
        expect(new URL(page.url()).searchParams.get("view")).toBe("breakdown");
        const region = page.getByRole("region", { name: "request waterfall" });
        await expect
          .poll(() => region.getByTestId("request-detail-title").textContent(), { timeout: 30_000 })
          .toBe(trtllmRequestTitle(opened));
        await shot(page, `request-link-trtllm-${scheme}-${width}.png`);
      },
      DEVICE_VIEWPORTS,
    );

    // A click on a Breakdown bar leaves the request's own id in the URL, which opens it again.
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=breakdown`);
    const chart = page.locator('[data-chart="per-request-breakdown"] svg.recharts-surface');
    await page.locator('[data-chart="per-request-breakdown"] canvas').waitFor({ timeout: 30_000 });
    const box = (await chart.boundingBox())!;
    await chart.click({ position: { x: box.width * 0.3, y: box.height * 0.8 } });
    await expect
      .poll(() => new URL(page.url()).searchParams.get("rid"), { timeout: 30_000 })
      .toMatch(/^\d+$/);
    expect(new URL(page.url()).searchParams.get("req")).toBeNull();
    const rid = new URL(page.url()).searchParams.get("rid")!;
    const region = page.getByRole("region", { name: "request waterfall" });
    await expect
      .poll(() => region.getByTestId("request-detail-title").textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`^disagg request id ${rid}\\b`));
    await page.reload();
    await expect
      .poll(() => region.getByTestId("request-detail-title").textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`^disagg request id ${rid}\\b`));

    // An id no request carries: words in the drill-down's place, no waterfall.
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=breakdown&rid=no-such-id`);
    await expect
      .poll(() => page.getByTestId("request-link-notice").textContent(), { timeout: 30_000 })
      .toContain("no request with id no-such-id in this run");
    expect(await region.count()).toBe(0);
    await shot(page, "request-link-unknown.png");
    await page.close();
  });

  it("opens an aiperf record by its x_request_id in the timeline's detail", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-request-link-"));
    const gen = await generateAiperfRun(dir, { records: 60, warmup: 2, concurrency: 4, csv: false });
    const run = await apiUpload(t.app.url, [{ path: gen.jsonlPath }, { path: gen.summaryPath }]);
    const record = fs
      .readFileSync(gen.jsonlPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((r) => r.metadata.benchmark_phase === "profiling")[25];
    const xid = record.metadata.x_request_id as string;
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?rid=${encodeURIComponent(xid)}`);
    expect(new URL(page.url()).searchParams.get("view")).toBe("timeline");
    const detail = page.getByRole("region", { name: "request detail" });
    await detail.getByText("x_request_id").waitFor({ timeout: 30_000 });
    expect(await detail.innerText()).toContain(xid);
    await page.close();
  });
});
