/**
 * What the browser tests check on a view as a reader sees it, one page visit serving every check
 * (honest-views.test.ts walks every view of every run once and runs them all):
 * - emptySurfaces: no chart frame without data marks;
 * - readableProblems: each number axis has a title with its unit and round ticks (a step of 1, 2,
 *   2.5 or 5 × 10ⁿ), no text is in scientific notation, counts take the right plural and ordinals
 *   the right suffix, and each drawn chart and table of figures says which window, requests and
 *   method it uses (docs/metrics.md §Readable numbers);
 * - labelClashes: no chart label leaves its drawing, overlaps another, or sits on a bar.
 */
import type { Page } from "playwright-core";
import { ordinal } from "@/lib/format-number";
import { settleLayout } from "./harness";

/**
 * Waits until the page has stopped loading, no chart slot says it is loading, and its layout has
 * settled (settleLayout: the charts drawn after the first have taken their boxes and stand still).
 */
export async function settleView(page: Page): Promise<void> {
  await page.getByRole("tabpanel").or(page.locator("main")).first().waitFor();
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => !/Loading [^…]*…/.test(document.body.innerText), null, {
    timeout: 30_000,
  });
  await settleLayout(page);
}

/** Chart surfaces (not legend icons) that paint no bar, line segment, area or point. */
export async function emptySurfaces(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const svg of document.querySelectorAll(".recharts-wrapper > svg.recharts-surface")) {
      const bars = [...svg.querySelectorAll(".recharts-bar-rectangle path, path.recharts-rectangle")].filter(
        (p) => Number(p.getAttribute("width") ?? 1) > 0 && Number(p.getAttribute("height") ?? 1) > 0,
      );
      const curves = [...svg.querySelectorAll("path.recharts-curve")].filter((p) =>
        /[LCQ]/.test(p.getAttribute("d") ?? ""),
      );
      const points = svg.querySelectorAll(".recharts-scatter-symbol, .recharts-dot");
      // A dense chart paints its marks on a canvas layer: marks when any of its pixels is painted.
      const painted = [...svg.querySelectorAll<HTMLCanvasElement>("canvas[data-canvas-marks]")].filter(
        (c) => {
          const px = c.getContext("2d")?.getImageData(0, 0, c.width, c.height).data ?? [];
          for (let i = 3; i < px.length; i += 4) if (px[i] > 0) return true;
          return false;
        },
      );
      if (bars.length + curves.length + points.length + painted.length === 0)
        out.push(svg.closest("figure")?.getAttribute("data-chart") ?? "(unnamed chart)");
    }
    return out;
  });
}

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

/** Tables of figures, by test id: each says its window, requests and method like a chart. */
const FIGURE_TABLES = [
  "latency-stats",
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

/** What one page's readable-numbers check counted, added to by readableProblems. */
export interface ReadableCounts {
  axes: number;
  charts: number;
  tables: number;
}

/**
 * The page's readable-numbers problems (see the top of this file), each prefixed by `where`; the
 * number axes, drawn charts and tables of figures it looked at are added to `counts`.
 */
export async function readableProblems(page: Page, where: string, counts: ReadableCounts): Promise<string[]> {
  const problems: string[] = [];
  const facts = await readPage(page);
  for (const p of copyProblems(facts.text)) problems.push(`${where}: ${p}`);
  for (const { chart, definition } of facts.drawn) {
    counts.charts++;
    if (!definition) problems.push(`${where} › ${chart}: no window/requests/method line`);
  }
  for (const { table, definition } of facts.tables) {
    counts.tables++;
    if (!definition) problems.push(`${where} › table ${table}: no window/requests/method line`);
  }
  const numeric = new Map<string, number>();
  for (const a of facts.axes) {
    const values = a.ticks.map(tickNumber);
    if (values.length === 0 || values.some((v) => v === null)) continue;
    counts.axes++;
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
  return problems;
}

export interface Clash {
  where: string;
  chart: string;
  what: string;
}

/**
 * Every text label of every chart on the page (reference-line labels, axis ticks and titles, lane
 * labels): none may leave its drawing, no two may intersect, and no mark's name (a percentile)
 * may sit on a bar. Boxes come from the browser's
 * layout (getBoundingClientRect), so rotated axis titles and haloes count as drawn.
 */
export async function labelClashes(page: Page, where: string): Promise<Clash[]> {
  const found = await page.evaluate(() => {
    const out: Array<{ chart: string; what: string }> = [];
    const text = (e: Element) => (e.textContent ?? "").trim();
    for (const fig of document.querySelectorAll("figure[data-chart]")) {
      const chart = fig.getAttribute("data-chart") ?? "?";
      const svg =
        fig.querySelector<SVGSVGElement>(".recharts-wrapper > svg.recharts-surface") ??
        fig.querySelector<SVGSVGElement>("svg[role=img]");
      if (!svg) continue;
      const frame = svg.getBoundingClientRect();
      const labels = [...svg.querySelectorAll("text")]
        .filter((t) => text(t) !== "")
        .map((t) => ({ t: text(t), r: t.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0);
      const slack = 0.5;
      for (const { t, r } of labels)
        if (
          r.left < frame.left - slack ||
          r.right > frame.right + slack ||
          r.top < frame.top - slack ||
          r.bottom > frame.bottom + slack
        )
          out.push({ chart, what: `"${t}" leaves the drawing` });
      // Text boxes include the font's line gap, so boxes that merely touch are not a clash.
      const inset = 1;
      for (let i = 0; i < labels.length; i++)
        for (let j = i + 1; j < labels.length; j++) {
          const a = labels[i].r;
          const b = labels[j].r;
          if (
            a.left + inset < b.right - inset &&
            b.left + inset < a.right - inset &&
            a.top + inset < b.bottom - inset &&
            b.top + inset < a.bottom - inset
          )
            out.push({ chart, what: `"${labels[i].t}" overlaps "${labels[j].t}"` });
        }
      // A mark's name (a percentile) is never drawn on a bar: it sat on the tallest one.
      const bars = [...svg.querySelectorAll(".recharts-bar-rectangle path, .recharts-bar-rectangle rect")]
        .map((b) => b.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.height > 0);
      for (const m of svg.querySelectorAll("text.chart-mark-label")) {
        const r = m.getBoundingClientRect();
        if (r.width === 0) continue;
        const on = bars.find(
          (b) => r.left < b.right && b.left < r.right && r.top < b.bottom - inset && b.top < r.bottom - inset,
        );
        if (on) out.push({ chart, what: `"${text(m)}" is drawn on a bar` });
      }
    }
    return out;
  });
  return found.map((c) => ({ where, ...c }));
}
