/**
 * Every view of every example run, and the compare page, as a reader sees them: each number axis
 * has a title with its unit and round ticks (a step of 1, 2, 2.5 or 5 × 10ⁿ), no text is in
 * scientific notation, counts take the right plural and ordinals the right suffix, and each drawn
 * chart and table of figures says which window, requests and method it uses (docs/metrics.md
 * §Readable numbers).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { RUN_VIEW_IDS } from "@/lib/api/run-views";
import { ordinal } from "@/lib/format-number";
import { useAppAndBrowser } from "./harness";

interface Axis {
  chart: string;
  ticks: string[];
}
interface PageFacts {
  axes: Axis[];
  /** Axis titles per chart */
  titles: Record<string, string[]>;
  /** Charts drawn, with whether each says its definitions */
  drawn: Array<{ chart: string; definition: boolean }>;
  /** Tables of figures shown, with whether each says its definitions */
  tables: Array<{ table: string; definition: boolean }>;
  text: string;
}

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => !/Loading [^…]*…/.test(document.body.innerText), null, {
    timeout: 30_000,
  });
  await page.waitForTimeout(300);
}

/** Tables of figures, by test id: each says its window, requests and method like a chart. */
const FIGURE_TABLES = [
  "latency-stats",
  "aiperf-summary-stats",
  "trtllm-latency-stats",
  "slowest-requests",
  "offload-endpoint-table",
  "offload-tier-table",
  "step-stats",
  "request-steps",
];

async function readPage(page: Page): Promise<PageFacts> {
  return page.evaluate((figureTables) => {
    const out: PageFacts = { axes: [], titles: {}, drawn: [], tables: [], text: "" };
    for (const id of figureTables)
      for (const table of document.querySelectorAll(`table[data-testid="${id}"]`))
        out.tables.push({
          table: id,
          definition: table.closest("[data-table-card]")?.querySelector("[data-definition]") != null,
        });
    for (const fig of document.querySelectorAll("figure[data-chart]")) {
      const chart = fig.getAttribute("data-chart") ?? "?";
      const svg = fig.querySelector(".recharts-wrapper > svg.recharts-surface");
      if (!svg) continue;
      out.drawn.push({ chart, definition: fig.querySelector("[data-testid=chart-definition]") !== null });
      for (const g of svg.querySelectorAll(".recharts-cartesian-axis-tick-labels"))
        out.axes.push({
          chart,
          ticks: [...g.querySelectorAll(".recharts-cartesian-axis-tick-value")].map((t) =>
            (t.textContent ?? "").trim(),
          ),
        });
      out.titles[chart] = [...svg.querySelectorAll(".recharts-label")]
        .map((t) => (t.textContent ?? "").trim())
        .filter((t) => t !== "");
    }
    out.text = document.querySelector("main")?.innerText ?? document.body.innerText;
    return out;
  }, FIGURE_TABLES);
}

/** The number a tick shows, or null for a category label ("10.0.0.1:8000", "all prefill"). */
function tickNumber(text: string): number | null {
  const m = /^(-?[\d,]*\.?\d+)\s*(ms|s|%|GB\/s|GB|W|tok\/s|req\/s)?$/.exec(text);
  return m ? Number(m[1].replace(/,/g, "")) : null;
}

const isRound = (step: number) => {
  const p = 10 ** Math.floor(Math.log10(step) + 1e-9);
  return [1, 2, 2.5, 5, 10].some((m) => Math.abs(step / p - m) < 1e-6);
};

/** Why the ticks of one axis are not round, or null when they are. */
function tickProblem(values: number[]): string | null {
  if (values.length < 2) return null;
  const sorted = [...values].sort((a, b) => a - b);
  // A log axis steps by powers of ten.
  if (sorted[0] > 0 && sorted.every((v, i) => i === 0 || Math.abs(v / sorted[i - 1] - 10) < 1e-6))
    return null;
  const diffs = sorted.slice(1).map((v, i) => v - sorted[i]);
  const step = Math.min(...diffs);
  if (!(step > 0) || !isRound(step)) return `step ${step}`;
  const off = sorted.find((v) => Math.abs(v / step - Math.round(v / step)) > 1e-6);
  return off === undefined ? null : `${off} is not a multiple of ${step}`;
}

/** A title names its unit in brackets, or is a count whose noun is its unit. */
const titled = (t: string) => /\(.+\)$/.test(t) || /(requests|transfers|in flight)$/.test(t);

/** Wrong plurals and ordinals, numbers in scientific notation, long counts without separators. */
function copyProblems(text: string): string[] {
  const found: string[] = [];
  // A number alone, not hex digits inside an id ("…a16e3f…", a UUID's "-1e00-").
  const sci = /(?<![\w.-])\d+(\.\d+)?e[-+]?\d+(?![\w.-])/.exec(text);
  if (sci) found.push(`scientific notation "${sci[0]}"`);
  const one =
    /(^|[^\d.,])1 (requests|errors|transfers|records|runs|files|endpoints|GPUs|workers|steps|completed requests|failed [a-z ]*requests|successful [a-z ]*requests)\b/.exec(
      text,
    );
  if (one) found.push(`plural after 1: "${one[0].trim()}"`);
  for (const m of text.matchAll(/(?<![\w.,])(\d[\d,]*)(st|nd|rd|th)\b/g)) {
    const right = ordinal(Number(m[1].replace(/,/g, "")));
    if (right !== m[0]) found.push(`ordinal "${m[0]}" (should be ${right})`);
  }
  const bare = /\b(of|sample of|every) \d{4,}\b/.exec(text);
  if (bare) found.push(`no thousands separator: "${bare[0]}"`);
  return found;
}

describe("readable views", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("titled axes with units, round ticks, plain numbers, right plurals and definitions on every view", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; name: string }>;
    };
    expect(runs.length).toBeGreaterThanOrEqual(5);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const problems: string[] = [];
    let axes = 0;
    let charts = 0;
    let tables = 0;
    const check = async (where: string) => {
      await settle(page);
      const facts = await readPage(page);
      for (const p of copyProblems(facts.text)) problems.push(`${where}: ${p}`);
      for (const { chart, definition } of facts.drawn) {
        charts++;
        if (!definition) problems.push(`${where} › ${chart}: no window/requests/method line`);
      }
      for (const { table, definition } of facts.tables) {
        tables++;
        if (!definition) problems.push(`${where} › table ${table}: no window/requests/method line`);
      }
      const numeric = new Map<string, number>();
      for (const a of facts.axes) {
        const values = a.ticks.map(tickNumber);
        if (values.length === 0 || values.some((v) => v === null)) continue;
        axes++;
        numeric.set(a.chart, (numeric.get(a.chart) ?? 0) + 1);
        const bad = tickProblem(values as number[]);
        if (bad) problems.push(`${where} › ${a.chart}: ticks ${JSON.stringify(a.ticks)} (${bad})`);
        if (a.ticks.some((x) => /\d{4}/.test(x) && !/,/.test(x)))
          problems.push(`${where} › ${a.chart}: ticks without separators ${JSON.stringify(a.ticks)}`);
      }
      for (const [chart, n] of numeric) {
        const titles = facts.titles[chart] ?? [];
        if (titles.length < n)
          problems.push(`${where} › ${chart}: ${n} number axes, titles ${JSON.stringify(titles)}`);
        for (const title of titles)
          if (!titled(title)) problems.push(`${where} › ${chart}: axis title "${title}" has no unit`);
      }
    };
    for (const run of runs)
      for (const view of RUN_VIEW_IDS) {
        await page.goto(`${t.app.url}/runs/${run.id}?view=${view}`);
        await page.locator(`[data-view="${view}"]`).waitFor();
        await check(`${run.name} › ${view}`);
      }
    await page.goto(`${t.app.url}/compare?runs=${runs.map((r) => r.id).join(",")}`);
    await check("compare");
    await page.close();
    expect(charts).toBeGreaterThan(30);
    // Latency statistics of 5 aiperf and 2 TensorRT-LLM runs, slowest requests, offload, steps.
    expect(tables).toBeGreaterThan(10);
    expect(axes).toBeGreaterThan(60);
    expect(problems).toEqual([]);
  }, 900_000);
});
