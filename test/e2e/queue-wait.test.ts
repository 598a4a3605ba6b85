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
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { apiUpload, expectFitsEachLook, gotoHydrated, useAppAndBrowser } from "./harness";

const REAL = path.resolve(__dirname, "../fixtures/aiperf-real-c4");

describe("compare: client-side queueing from aiperf's records", () => {
  const t = useAppAndBrowser();

  it("shows each run's queue wait, the requests that waited and the field, and fits a phone", async () => {
    const a = (
      await apiUpload(
        t.app.url,
        ["profile_export.jsonl", "profile_export_aiperf.json"].map((f) => ({ path: path.join(REAL, f) })),
        { name: "aiperf-real-c4" },
      )
    ).id;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "queue-wait-e2e-"));
    await generateAiperfRun(dir, {
      records: 200,
      csv: false,
      concurrency: 4,
      creditWaitMs: (i: number) => (i % 4 === 3 ? 60 : 2),
    });
    const b = (
      await apiUpload(
        t.app.url,
        ["profile_export.jsonl", "profile_export_aiperf.json"].map((f) => ({ path: path.join(dir, f) })),
        { name: "queued" },
      )
    ).id;
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a},${b}`);
    const panel = page.getByTestId("comparability");
    const reason = panel.getByTestId(`comparability-${b}`).locator('[data-reason="saturation"]');
    await expect.poll(() => reason.getAttribute("data-severity")).toBe("caveat");
    const text = (await reason.textContent()) ?? "";
    // The real run's figures, from its 200 records (its 0.6.0 summary has none).
    expect(text).toContain(
      "concurrency 3.94 of 4 requested; queue wait p50 2.81 ms, p90 5.30 ms against TTFT p50 58.2 ms, p90 76.3 ms; p99 51.7 ms, max 71.6 ms; 19 of 198 requests (9.6%) waited ≥ 10% of their own TTFT",
    );
    expect(text).toMatch(/p90 60\.0 ms against TTFT .*; 50 of 200 requests \(25\.0%\) waited/);
    expect(text).toContain(
      "client-side queueing (aiperf records: request_start_ns − credit_issued_ns (credit_to_start_latency), 200 requests) at p90",
    );
    // Nothing of the panel runs off a phone's screen.
    await expectFitsEachLook(page, panel, "compare-queue-wait");
    await page.close();
  });

  it("shows a run that held less than its requested concurrency, from its records, and fits a phone", async () => {
    const a = (
      await apiUpload(
        t.app.url,
        ["profile_export.jsonl", "profile_export_aiperf.json"].map((f) => ({ path: path.join(REAL, f) })),
        { name: "aiperf-real-c4" },
      )
    ).id;
    // Each worker idles 1.5 s between a response and its next send: about 2.8 of 4 in flight.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "held-concurrency-e2e-"));
    await generateAiperfRun(dir, {
      records: 200,
      csv: false,
      concurrency: 4,
      sendGapMs: 1500,
      creditWaitMs: 2,
    });
    const b = (
      await apiUpload(
        t.app.url,
        ["profile_export.jsonl", "profile_export_aiperf.json"].map((f) => ({ path: path.join(dir, f) })),
        { name: "idle workers" },
      )
    ).id;
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a},${b}`);
    const panel = page.getByTestId("comparability");
    const reason = panel.getByTestId(`comparability-${b}`).locator('[data-reason="saturation"]');
    await expect.poll(() => reason.getAttribute("data-severity")).toBe("caveat");
    const text = (await reason.textContent()) ?? "";
    expect(text).toContain("concurrency 3.94 of 4 requested; queue wait p50 2.81 ms");
    expect(text).toMatch(/concurrency 2\.\d\d of 4 requested; queue wait p50 2\.00 ms/);
    expect(text).toMatch(
      /saturated load generator in the second run: effective concurrency below 90% of the requested \(2\.\d\d of 4; aiperf records: time-weighted requests in flight, request_start_ns → request_end_ns \(effective_concurrency\), 200 requests\)/,
    );
    expect(text).not.toContain("client-side queueing");
    await expectFitsEachLook(page, panel, "compare-held-concurrency");
    await page.close();
  });
});
