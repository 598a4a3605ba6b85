/**
 * The Compare page's comparability panel (docs/metrics.md §Comparable runs) in real Chromium:
 * two aiperf runs (test/generators/aiperf.mjs, aiperf's record and summary shapes) with one ISL
 * mean but another ISL shape, and 10% failed requests in the second. The panel says "not
 * comparable" with both reasons and their evidence; accepting them by name gives the verdicts back.
 * Screenshots light and dark at 1440 and 390 px go to RUNLENS_SCREENSHOT_DIR.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  apiUpload,
  expectFitsEachLook,
  gotoHydrated,
  shot,
  uploadGeneratedAiperf,
  useAppAndBrowser,
} from "./harness";

/**
 * Where `text` is cut across lines inside `el` as laid out: each cut as the two characters either
 * side of it with a "|" between ("s-|and"), from the characters' boxes.
 */
async function lineBreaksIn(el: Locator, text: string): Promise<string[]> {
  return el.evaluate((root, text) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const chars: Array<{ node: Text; i: number }> = [];
    let all = "";
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n as Text;
      for (let i = 0; i < t.data.length; i++) chars.push({ node: t, i });
      all += t.data;
    }
    const at = all.indexOf(text);
    if (at < 0) throw new Error(`"${text}" is not in the element`);
    const top = (k: number) => {
      const r = document.createRange();
      r.setStart(chars[k].node, chars[k].i);
      r.setEnd(chars[k].node, chars[k].i + 1);
      return r.getBoundingClientRect().top;
    };
    const cuts: string[] = [];
    for (let k = at + 1; k < at + text.length; k++)
      if (Math.abs(top(k) - top(k - 1)) > 2) cuts.push(`${all.slice(k - 2, k)}|${all.slice(k, k + 2)}`);
    return cuts;
  }, text);
}

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

  it("a collector implied by older Dynamo's --publish-events-and-metrics: a caveat that names the inference, and the collector table says so", async () => {
    // Same perf metrics in both runs; the branch's Dynamo worker publishes KV events with the older
    // flag, which turned enable_iter_perf_stats on (ai-dynamo/dynamo
    // examples/tensorrt_llm/common/base_engine.py; components/src/dynamo/trtllm/main.py until PR #12162).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "doctor-collectors-"));
    const file = (name: string, text: string) => {
      fs.writeFileSync(path.join(dir, name), text);
      return { path: path.join(dir, name), name };
    };
    const perf = { path: path.resolve(__dirname, "../fixtures/compare/run-a/perf_metrics-0.jsonl") };
    const launch = (flag: string) =>
      `decode:\n  args:\n    - --model-path\n    - /models/x\n    - ${flag}\n    - --extra-engine-args\n    - /cfg/decode.yaml\n`;
    const a = (
      await apiUpload(
        t.app.url,
        [
          perf,
          file("dynamo-decode.yaml", launch("--publish-kv-events")),
          file("extra-llm-api-config.yml", "backend: pytorch\nenable_iter_perf_stats: false\n"),
        ],
        { name: "kv events" },
      )
    ).id;
    const b = (
      await apiUpload(t.app.url, [perf, file("dynamo-decode.yaml", launch("--publish-events-and-metrics"))], {
        name: "older dynamo",
      })
    ).id;
    fs.rmSync(dir, { recursive: true, force: true });
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a},${b}`);
    const panel = page.getByTestId("comparability");
    await expect.poll(() => panel.getAttribute("data-verdict")).toBe("comparable with caveats");
    const reason = panel.getByTestId(`comparability-${b}`).locator('[data-reason="collectors"]');
    expect(await reason.getAttribute("data-severity")).toBe("caveat");
    expect(await reason.textContent()).toMatch(
      /enable_iter_perf_stats off → enable_iter_perf_stats on.*inferred from --publish-events-and-metrics in dynamo-decode\.yaml/,
    );
    await expectFitsEachLook(page, panel, "compare-doctor-implied");
    // On a phone the flag's name breaks only after a hyphen between two of its words, never
    // inside a word nor after its leading "--" (which read as a dash ending the line).
    await page.setViewportSize({ width: 390, height: 900 });
    for (const cut of await lineBreaksIn(reason, "--publish-events-and-metrics"))
      expect(cut, `the flag breaks at "${cut}"`).toMatch(/[a-z]-\|[a-z]/);
    await page.setViewportSize({ width: 1440, height: 900 });
    const table = page.getByTestId("collectors-table");
    await table.locator("xpath=ancestor::details[1]/summary").click();
    const row = table.locator("tr", { hasText: "enable_iter_perf_stats" });
    expect(await row.textContent()).toMatch(/off.*on\s*\(inferred from the config\)/);
    await expectFitsEachLook(page, table.locator("xpath=ancestor::details[1]"), "compare-collectors-implied");
    // A phone reads the table without scrolling sideways inside its box: its rows are stacked,
    // each collector's name above its state in each run.
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      // Neither the table (a phone's tables scroll in themselves) nor its card scrolls sideways.
      const overflow = await table.evaluate((t) => {
        const card = t.closest("[data-table-card]")!;
        return Math.max(t.scrollWidth - t.clientWidth, card.scrollWidth - card.clientWidth);
      });
      expect(overflow, `collectors table at ${width} px scrolls inside its box`).toBeLessThanOrEqual(0);
    }
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
