/**
 * The offline report reads on a phone (issue 29): at 390 px wide, in the light and the dark
 * theme, the summary's facts and its files table fit the page, their long values (a run id, a
 * TensorRT-LLM file name, a warning) wrapped or stacked under their name instead of running past
 * the right edge; at 1440 px as well.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openOffline, shot, uploadGeneratedAiperf, uploadGeneratedTrtllm, useAppAndBrowser } from "./harness";

/** What runs past the summary's right edge: the section's own overflow and each table's and value's. */
async function overflowOf(page: import("playwright-core").Page) {
  return page.locator("section#summary").evaluate((section) => {
    const right = section.getBoundingClientRect().right;
    const past = [...section.querySelectorAll("dd, td, th, p, table")]
      .filter((el) => el.getBoundingClientRect().right > right + 0.5)
      .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? "").slice(0, 40)}"`);
    const tables = [...section.querySelectorAll("table")]
      .filter((t) => t.scrollWidth > t.clientWidth)
      .map((t) => `table scrolls: ${t.scrollWidth} > ${t.clientWidth}`);
    return {
      scrollWidth: section.scrollWidth,
      clientWidth: section.clientWidth,
      pageScrollWidth: document.documentElement.scrollWidth,
      pageWidth: window.innerWidth,
      past: [...past, ...tables],
    };
  });
}

describe("the report's summary at 390 px", () => {
  const t = useAppAndBrowser();

  it("fits the page's width, light and dark, at 390 and 1440 px: no value runs past the right edge", async () => {
    const runs = [
      {
        name: "trtllm",
        ...(await uploadGeneratedTrtllm(
          t.app.url,
          { mode: "disaggregated", requests: 40, seed: 9, ctxWorkers: 1, genWorkers: 1 },
          { name: "e2e narrow report trtllm" },
        )),
      },
      {
        name: "aiperf",
        ...(await uploadGeneratedAiperf(
          t.app.url,
          { records: 40, concurrency: 4, seed: 9 },
          { name: "e2e narrow report aiperf" },
        )),
      },
    ];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-report-narrow-"));
    for (const run of runs) {
      const res = await fetch(`${t.app.url}/api/runs/${run.id}/report.html`);
      expect(res.status).toBe(200);
      const file = path.join(dir, `${run.id}.html`);
      fs.writeFileSync(file, await res.text());
      for (const width of [390, 1440])
        for (const scheme of ["light", "dark"] as const) {
          const { context, page } = await openOffline(t.browser, file, { width, height: 844 }, scheme);
          const o = await overflowOf(page);
          const where = `${run.name} at ${width} px, ${scheme}`;
          expect(o.scrollWidth, `${where}: summary ${JSON.stringify(o)}`).toBeLessThanOrEqual(o.clientWidth);
          expect(o.past, where).toEqual([]);
          expect(o.pageScrollWidth, where).toBeLessThanOrEqual(o.pageWidth);
          await shot(page, `report-${run.name}-${scheme}-${width}.png`);
          await context.close();
        }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }, 240_000);
});
