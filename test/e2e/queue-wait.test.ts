/**
 * The queue wait read from aiperf's records on the Compare page's comparability panel
 * (docs/metrics.md §Comparable runs, "Client-side queueing"), in real Chromium: the real aiperf
 * 0.6.0 run test/fixtures/aiperf-real-c4 (records with `credit_issued_ns`, a summary without
 * `credit_to_start_latency`) as the baseline, against a generated run of aiperf's record schema
 * (test/generators/aiperf.mjs, `credit_issued_ns` as src/aiperf/common/models/record_models.py
 * writes it) whose every fourth request waited 60 ms to be sent. The saturation reason shows
 * both runs' waits, how many requests waited and the field they came from; a second generated run
 * whose workers idle between requests shows the concurrency it held (aiperf's effective
 * concurrency, computed from its records) below the 4 requested. Screenshots light
 * and dark at 1440 and 390 px go to RUNLENS_SCREENSHOT_DIR.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  aiperfExportFiles,
  apiUpload,
  expectFitsEachLook,
  gotoHydrated,
  uploadGeneratedAiperf,
  useAppAndBrowser,
} from "./harness";

const REAL = path.resolve(__dirname, "../fixtures/aiperf-real-c4");

describe("compare: client-side queueing from aiperf's records", () => {
  const t = useAppAndBrowser();

  /**
   * Uploads the real run and a generated one of `opts` (200 records at concurrency 4) named
   * `name`, opens Compare on the two, waits for the generated run's saturation reason to be a
   * caveat, and resolves with the page, the comparability panel and that reason's text.
   */
  const compareWithReal = async (name: string, opts: Record<string, unknown>) => {
    const a = (await apiUpload(t.app.url, aiperfExportFiles(REAL), { name: "aiperf-real-c4" })).id;
    const b = (await uploadGeneratedAiperf(t.app.url, { records: 200, concurrency: 4, ...opts }, { name }))
      .id;
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a},${b}`);
    const panel = page.getByTestId("comparability");
    const reason = panel.getByTestId(`comparability-${b}`).locator('[data-reason="saturation"]');
    await expect.poll(() => reason.getAttribute("data-severity")).toBe("caveat");
    return { page, panel, text: (await reason.textContent()) ?? "" };
  };

  it("shows each run's queue wait, the requests that waited and the field, and fits a phone", async () => {
    const { page, panel, text } = await compareWithReal("queued", {
      creditWaitMs: (i: number) => (i % 4 === 3 ? 60 : 2),
    });
    // The real run's figures, from its 200 records (its 0.6.0 summary has none).
    expect(text).toContain(
      "concurrency 3.94 of 4 requested; queue wait p50 2.81 ms, p90 5.30 ms against TTFT p50 58.2 ms, p90 76.3 ms; p99 51.7 ms, max 71.6 ms; 19 of 198 requests (9.6%) waited ≥ 10% of their own TTFT",
    );
    expect(text).toMatch(/p90 60\.0 ms against TTFT .*; 50 of 200 requests \(25\.0%\) waited/);
    expect(text).toContain(
      "client-side queueing (aiperf records: each request's wait from the credit being issued to the request being sent, 200 requests) at p90",
    );
    // Nothing of the panel runs off a phone's screen.
    await expectFitsEachLook(page, panel, "compare-queue-wait");
    await page.close();
  });

  it("shows a run that held less than its requested concurrency, from its records, and fits a phone", async () => {
    // Each worker idles 1.5 s between a response and its next send: about 2.8 of 4 in flight.
    const { page, panel, text } = await compareWithReal("idle workers", { sendGapMs: 1500, creditWaitMs: 2 });
    expect(text).toContain("concurrency 3.94 of 4 requested; queue wait p50 2.81 ms");
    expect(text).toMatch(/concurrency 2\.\d\d of 4 requested; queue wait p50 2\.00 ms/);
    expect(text).toMatch(
      /saturated load generator in the second run: effective concurrency below 90% of the requested \(2\.\d\d of 4; aiperf records: time-weighted requests in flight, from the first request's start to the last request's end, 200 requests\)/,
    );
    expect(text).not.toContain("client-side queueing");
    await expectFitsEachLook(page, panel, "compare-held-concurrency");
    await page.close();
  });
});
