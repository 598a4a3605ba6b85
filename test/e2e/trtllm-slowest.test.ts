/**
 * The Latency view of a TensorRT-LLM-only run (the example's perf metrics, no aiperf records)
 * lists its slowest requests by server TTFT, E2E and TPOT; a row's request ID opens that
 * request's waterfall below the table, by its own id (`rid` in the URL, the timeline's),
 * and Back closes it. Screenshots go to RUNLENS_SCREENSHOT_DIR.
 */
import { describe, expect, it } from "vitest";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { requestDetailSchema, trtllmSlowestPayloadSchema } from "@/lib/api/trtllm-charts";
import { trtllmRequestName, trtllmRequestOwnId, trtllmRequestTitle } from "@/lib/metrics/trtllm-request-name";
import { DEVICE_VIEWPORTS, forEachLook, shot, useAppAndBrowser } from "./harness";

describe("slowest requests of a TensorRT-LLM run", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("lists the ten slowest by the metric picked and opens a row's waterfall; Back closes it", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs?label=trtllm`)).json()) as {
      runs: Array<{ id: string; name: string }>;
    };
    const run = runs.find((r) => r.name.includes("300 requests (synthetic)"))!;
    let res: Response | null = null;
    await expect
      .poll(
        async () => {
          res = await fetch(`${t.app.url}/api/runs/${run.id}/charts/${TRTLLM_CHARTS.slowest.key}`);
          return res.status;
        },
        { timeout: 120_000 },
      )
      .toBe(200);
    const payload = trtllmSlowestPayloadSchema.parse(await res!.json());
    const first = payload.lists.e2eMs[0];
    const detailRes = await fetch(`${t.app.url}/api/runs/${run.id}/trtllm/requests/${first.idx}`);
    const opened = requestDetailSchema.parse(await detailRes.json());
    // The list, the drill-down's title and its waterfall name the request alike, by its own id.
    const name = trtllmRequestName(first);
    expect(trtllmRequestName(opened)).toBe(name);

    await forEachLook(
      t.browser,
      `${t.app.url}/runs/${run.id}?view=latency&metric=e2eMs`,
      async (page, { width, scheme }) => {
        const table = page.getByTestId("trtllm-slowest-requests");
        await table.waitFor({ timeout: 30_000 });
        const buttons = table.locator("tbody tr button[data-rid]");
        expect(await buttons.count()).toBe(payload.lists.e2eMs.length);
        expect(await buttons.first().getAttribute("data-rid")).toBe(String(first.idx));
        expect((await buttons.first().textContent())?.trim()).toBe(name);

        await buttons.first().click();
        const detail = page.getByTestId("trtllm-slowest-request-detail");
        await detail.waitFor({ timeout: 15_000 });
        // By its own id where it has one, else by its position (docs/http-api.md §A request's link).
        const own = trtllmRequestOwnId(first);
        await expect
          .poll(() => new URL(page.url()).searchParams.get(own === null ? "req" : "rid"))
          .toBe(own ?? String(first.idx));
        expect(await buttons.first().getAttribute("aria-expanded")).toBe("true");
        const title = detail.getByTestId("request-detail-title");
        await expect.poll(() => title.textContent(), { timeout: 15_000 }).toBe(trtllmRequestTitle(opened));
        await detail.getByText(`${name}: waterfall`).waitFor({ timeout: 15_000 });
        await shot(page, `trtllm-slowest-${scheme}-${width}.png`);

        await page.goBack();
        await expect.poll(() => detail.count(), { timeout: 15_000 }).toBe(0);
      },
      DEVICE_VIEWPORTS,
    );
  });
});
