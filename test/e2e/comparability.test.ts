/**
 * The Compare page's comparability panel (docs/metrics.md §Comparable runs) in real Chromium:
 * two aiperf runs (test/generators/aiperf.mjs, aiperf's record and summary shapes) with one ISL
 * mean but another ISL shape, and 10% failed requests in the second. The panel says "not
 * comparable" with both reasons and their evidence; accepting them by name gives the verdicts back.
 * Screenshots light and dark at 1440 and 390 px go to RUNLENS_SCREENSHOT_DIR.
 */
import { describe, expect, it } from "vitest";
import { expectFitsEachLook, gotoHydrated, shot, uploadGeneratedAiperf, useAppAndBrowser } from "./harness";

describe("compare: is this A/B fair?", () => {
  const t = useAppAndBrowser();

  const upload = async (name: string, opts: Record<string, unknown>, fields: Record<string, string> = {}) =>
    (await uploadGeneratedAiperf(t.app.url, { records: 300, concurrency: 4, ...opts }, { name, ...fields }))
      .id;

  it("names each blocking difference with its evidence, withholds verdicts, and gives them once accepted", async () => {
    const a = await upload("main", { seed: 1 });
    const b = await upload("branch", {
      seed: 2,
      islBase: 1000,
      islSpan: 200,
      errorEvery: 10,
      ttftScale: 1.3,
    });
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a},${b}`);
    const panel = page.getByTestId("comparability");
    await expect.poll(() => panel.getAttribute("data-verdict")).toBe("not comparable");
    const pair = panel.getByTestId(`comparability-${b}`);
    expect(await pair.getAttribute("data-verdict")).toBe("not comparable");
    const isl = pair.locator('[data-reason="isl"]');
    expect(await isl.getAttribute("data-severity")).toBe("blocking");
    expect(await isl.textContent()).toMatch(
      /ISL distribution: .*two-sample KS on the per-request token counts: D = 0\.\d\d, p < 0\.001/,
    );
    const errors = pair.locator('[data-reason="errors"]');
    expect(await errors.textContent()).toMatch(/error rate: 0\.0% \(0 of 300\) → 10\.0% \(30 of 300\)/);
    expect(await page.locator("td[data-noise-verdict]").count()).toBe(0);
    // Nothing of the panel runs off a phone's screen.
    await expectFitsEachLook(page, panel, "compare-doctor");
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });

    await panel.getByTestId("comparability-accept").click();
    await page.waitForURL(/allowDifferent=isl(%2C|,)errors/);
    await expect.poll(() => panel.getAttribute("data-verdict")).toBe("comparable with caveats");
    expect(await isl.getAttribute("data-severity")).toBe("accepted");
    await expect.poll(() => page.locator("td[data-noise-verdict]").count()).toBeGreaterThan(0);
    await shot(panel, "compare-doctor-accepted-light-1440.png");

    // Withholding again takes the verdicts away.
    await panel.getByTestId("comparability-accept").click();
    await expect.poll(() => panel.getAttribute("data-verdict")).toBe("not comparable");
    await page.close();
  });

  it("says a fair pair is comparable in one line", async () => {
    const a = await upload("nightly 1", { seed: 1 });
    const b = await upload("nightly 2", { seed: 3 });
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a},${b}`);
    const panel = page.getByTestId("comparability");
    await expect.poll(() => panel.getAttribute("data-verdict")).toBe("comparable");
    expect(await panel.textContent()).toMatch(
      /nightly 2 against nightly 1 \(baseline\): comparable — no difference/,
    );
    expect(await panel.locator("[data-reason]").count()).toBe(0);
    await shot(panel, "compare-doctor-comparable-light-1440.png");
    await page.close();
  });

  it("series: the latest run, not comparable with the run before, shows why instead of verdicts", async () => {
    const series = "doctor/e2e";
    for (const seed of [1, 2, 3]) await upload(`build ${seed}`, { seed }, { series, order: String(seed) });
    await upload("build 4", { seed: 4, concurrency: 8 }, { series, order: "4" });
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/series/${series}`);
    const note = page.getByTestId("series-comparability");
    await expect.poll(() => note.getAttribute("data-verdict")).toBe("not comparable");
    expect(await note.textContent()).toMatch(
      /Not comparable with the run before it: no verdicts\..*concurrency 4 → 8/,
    );
    expect(await page.getByTestId("series-latest").count()).toBe(0);
    expect(await page.getByText("The first run of a series has nothing to be judged against.").count()).toBe(
      0,
    );
    await shot(note, "series-doctor-light-1440.png");
    await page.close();
  });
});
