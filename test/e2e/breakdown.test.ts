import { describe, expect, it } from "vitest";

import { requestDetailSchema } from "@/lib/api/trtllm-charts";
import { trtllmRequestName, trtllmRequestTitle } from "@/lib/metrics/trtllm-request-name";
import { gotoHydrated, shot, uploadGeneratedTrtllm, useAppAndBrowser } from "./harness";

describe("breakdown view of a disaggregated TensorRT-LLM run", () => {
  const t = useAppAndBrowser();

  it("switches p50 → p99 and opens one request's waterfall", async () => {
    const run = await uploadGeneratedTrtllm(
      t.app.url,
      {
        mode: "disaggregated",
        requests: 300,
        seed: 2,
        ctxWorkers: 2,
        genWorkers: 2,
        dropServerFirstTokenRate: 0.05,
      },
      { name: "e2e disagg breakdown" },
    );
    expect(run.files.map((f) => f.kind)).toEqual(Array(5).fill("trtllm-perf-metrics"));

    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=breakdown`);
    await page.getByText("Where the time goes (p50)").waitFor({ timeout: 30_000 });
    await page.getByRole("group", { name: "statistic" }).getByRole("button", { name: "p99" }).click();
    await page.getByText("Where the time goes (p99)").waitFor({ timeout: 60_000 });
    await expect.poll(() => page.url()).toContain("stat=p99");

    const chart = page.locator('[data-chart="per-request-breakdown"] svg.recharts-surface');
    // 300 requests × 14 segments are dense: drawn on the chart's canvas layer.
    await page.locator('[data-chart="per-request-breakdown"] canvas').waitFor({ timeout: 30_000 });
    // A click anywhere over a request's column selects it (tall bars, tiny segments alike).
    const box = (await chart.boundingBox())!;
    await chart.hover({ position: { x: box.width * 0.3, y: box.height * 0.8 } });
    await chart.click({ position: { x: box.width * 0.3, y: box.height * 0.8 } });
    await page
      .getByRole("region", { name: "request waterfall" })
      .getByText("waterfall")
      .waitFor({ timeout: 30_000 });
    // The link names the request by its own id (docs/http-api.md §A request's link).
    await expect.poll(() => page.url()).toMatch(/[?&]rid=\d+/);
    const rid = new URL(page.url()).searchParams.get("rid")!;
    const { position } = (await (
      await fetch(`${t.app.url}/api/runs/${run.id}/requests/by-id?rid=${rid}`)
    ).json()) as { position: number };
    const opened = requestDetailSchema.parse(
      await (await fetch(`${t.app.url}/api/runs/${run.id}/trtllm/requests/${position}`)).json(),
    );
    expect(opened.disaggRequestId).not.toBeNull();
    const region = page.getByRole("region", { name: "request waterfall" });
    await expect
      .poll(() => region.getByTestId("request-detail-title").textContent())
      .toBe(trtllmRequestTitle(opened));
    await region.getByText(`${trtllmRequestName(opened)}: waterfall`).waitFor();
    // The 5% of requests without ctx server_first_token_time say so rather than showing 0 ms.
    expect(await page.getByText("not recorded").count()).toBeGreaterThan(0);
    await shot(page, "breakdown-disagg-p99-waterfall.png");
    await page.close();
  });
});
