import {
  formatBytes,
  formatFigure,
  formatFixed,
  formatMs,
  formatNumber,
  timeUnitFor,
} from "@/lib/format-number";

/**
 * Where a bar chart writes each bar's value, how short a bar may be drawn, and when its values
 * span too many decades for a linear axis (docs/metrics.md §Bar charts). Pure: the page's chart
 * kit (components/charts/plot-parts.tsx) and the offline report's SVG (lib/runs/report/svg-plot.ts)
 * both use it, so a bar reads the same on either.
 */

/**
 * A bar of a value above 0 is drawn at least this many pixels long: beside a 9.5 GB/s bar a
 * 5 MB/s one was a 0.05 px sliver, no bar at all. Its label carries the exact value.
 */
export const MIN_BAR_PX = 4;

/**
 * Horizontal bars on a phone name their categories above them (chart-container.tsx `namesAbove`),
 * so the plot keeps the width: the category axis keeps `axisPx`, each row is `rowPx` taller for its
 * name's line, each bar `barPx` thick with `gapPx` between a category's bars, and a name's
 * baseline `liftPx` above its bars. The server's drawing of such bars (lib/runs/first-figures.ts)
 * lays them out the same.
 */
export const NAMES_ABOVE = { axisPx: 2, rowPx: 16, barPx: 12, gapPx: 4, liftPx: 5 } as const;

/** How thick a category's `bars` side by side are when each is named above its row. */
export const namedBarGroupPx = (bars: number) =>
  Math.max(1, bars) * NAMES_ABOVE.barPx + (Math.max(1, bars) - 1) * NAMES_ABOVE.gapPx;

/** The value labels' font size, in px. */
export const LABEL_FONT_PX = 10;

/** The gap between a bar's end and its label, in px. */
export const LABEL_GAP_PX = 5;

/** Values spanning more than this many decades get a log-scale option. */
export const LOG_DECADES = 2;

/**
 * About how wide a plot of bars is, in px, when a chart must decide before it is drawn whether
 * labels fit above vertical bars: a half-width chart on a laptop, and a phone's (erring narrow).
 */
export const PLOT_PX = { wide: 380, narrow: 240 } as const;

/**
 * The length a bar is drawn: none for a value not recorded (never drawn as 0), none for 0, and at
 * least `MIN_BAR_PX` for a value above 0 however small it is on the axis.
 */
export function drawnLength(px: number, value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value) || value <= 0) return 0;
  return Math.max(px, MIN_BAR_PX);
}

/**
 * The charting library's minimum bar size for a value: a number, or a stacked bar's [from, to].
 * A value above 0 gets `MIN_BAR_PX`; 0, an empty slot and a value not recorded get none.
 */
export function minBarPx(value: unknown): number {
  const v = Array.isArray(value)
    ? typeof value[0] === "number" && typeof value[1] === "number"
      ? value[1] - value[0]
      : NaN
    : value;
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? MIN_BAR_PX : 0;
}

/**
 * The lengths a stack's bands are drawn, in px, on an axis of `pxPerUnit` px per unit: each band
 * of a value above 0 at least `minPx` long, the stack exactly as long as its total. A band whose
 * own length is under the minimum is drawn at the minimum, and what it gains is taken from the
 * longest bands of the same stack, cut down to one level (the longest first), never below the
 * minimum; so the stack never runs past its total nor stretches the axis, and a 0.9 ms band
 * beside 948 ms of decode is still a band. When the stack is too short for every band's minimum
 * (n bands in under n·`minPx`), each band is drawn an equal share of it. 0, a value not recorded
 * and a value below 0 are no band (length 0). The page's chart kit (plot-parts.tsx), the report's
 * SVG (lib/runs/report/svg-plot.ts) and the server's first figures (lib/runs/first-figures.ts)
 * all draw stacks by it (docs/metrics.md §Bar charts).
 */
export function stackBandsPx(
  values: ReadonlyArray<number | null | undefined>,
  pxPerUnit: number,
  minPx = MIN_BAR_PX,
): number[] {
  const own = values.map((v) =>
    typeof v === "number" && Number.isFinite(v) && v > 0 && pxPerUnit > 0 ? v * pxPerUnit : 0,
  );
  const n = own.filter((px) => px > 0).length;
  const total = own.reduce((a, px) => a + px, 0);
  if (n === 0 || !Number.isFinite(total)) return own;
  const min = Math.min(minPx, total / n);
  let owed = 0;
  for (const px of own) if (px > 0 && px < min) owed += min - px;
  if (owed <= 0) return own;
  // The level the longest bands are cut to: Σ over the bands above it of (px − level) = owed.
  const long = own.filter((px) => px >= min).sort((a, b) => b - a);
  let level = min;
  let above = 0;
  for (let k = 0; k < long.length; k++) {
    above += long[k];
    const next = k + 1 < long.length ? long[k + 1] : min;
    // Cutting the k+1 longest to `next` frees above − (k+1)·next: enough, the level lies here.
    if (above - (k + 1) * next >= owed) {
      level = (above - owed) / (k + 1);
      break;
    }
  }
  return own.map((px) => (px <= 0 ? 0 : px < min ? min : Math.min(px, level)));
}

/**
 * About how wide a label is drawn, erring wide (a label thought wider gets more room, never
 * less): the widest digits and letters of the UI font are about 0.62 em.
 */
export function labelWidthPx(text: string, fontPx = LABEL_FONT_PX): number {
  return Math.ceil(text.length * fontPx * 0.62);
}

/**
 * The room to keep right of horizontal bars for their labels: the longest bar reaches the plot's
 * edge and its label is written past it, so the widest label and its gap must fit there.
 */
export function labelRoomPx(texts: readonly string[], fontPx = LABEL_FONT_PX): number {
  let widest = 0;
  for (const t of texts) widest = Math.max(widest, labelWidthPx(t, fontPx));
  return texts.length === 0 ? 0 : LABEL_GAP_PX + widest + 4;
}

/** The height a label's line takes, with its halo, in px. */
export const labelLinePx = (fontPx = LABEL_FONT_PX) => Math.ceil(fontPx * 1.3);

/**
 * The height of one category's band of horizontal bars so that the labels of its `slots` bars,
 * each written level with its bar, are a line apart: the library keeps 10 % of the band free on
 * each side and `barGap` px between bars, so bar centres are (0.8·band − gap·(n−1))/n + gap apart.
 */
export function labelledBandPx(slots: number, barGap = 4, fontPx = LABEL_FONT_PX): number {
  const n = Math.max(1, slots);
  const line = labelLinePx(fontPx);
  // Centres a line apart within the band, and bands (one bar's label each) a line apart.
  return Math.ceil(Math.max(line, (n * line - barGap) / 0.8));
}

/**
 * The box of a figure of horizontal bars (`bars`: a category a row, its `series` side by side),
 * in px: a band per category tall enough for its bars' labels a line apart, and the value axis.
 * The page's chart kit (components/charts/figure-props.ts) and the server's drawing of a view's
 * first figure (lib/runs/first-figure-bars.ts) size it alike.
 */
export function barsHeightPx(series: number, categories: number): number {
  return Math.max(140, Math.max(16 + 24 * series, labelledBandPx(series)) * categories + 56);
}

/**
 * The width of horizontal bars' category axis, in px, for names of `widest` characters: `labelled`
 * (cut names, or notes after them) between 120 and 240, else 200.
 */
export const barNamesPx = (widest: number, labelled: boolean) =>
  labelled ? Math.min(240, Math.max(120, Math.ceil(16 + 6.6 * widest))) : 200;

/** The width of stacked rows' category axis (a statistic's name), in px, between 40 and 160. */
export const stackNamesPx = (widest: number) => Math.min(160, Math.max(40, Math.ceil(16 + 6.6 * widest)));

/** The box of horizontal stacked rows (one stack a category), in px, as `barsHeightPx`. */
export function stackedRowsHeightPx(categories: number): number {
  return Math.max(150, 44 * categories + 84);
}

/**
 * Whether value labels written above vertical bars fit: each bar's slot (the plot's width over
 * the bars, after the library's 10 % gap each side of a category) at least as wide as its label.
 * When they do not (several runs on a phone), the bars go sideways, one row each.
 */
export function labelsFitAbove(
  plotWidthPx: number,
  categories: number,
  slots: number,
  texts: readonly string[],
  fontPx = LABEL_FONT_PX,
): boolean {
  if (categories === 0 || slots === 0) return true;
  const slot = (0.8 * plotWidthPx) / categories / slots;
  return texts.every((t) => labelWidthPx(t, fontPx) + 2 <= slot);
}

/** How many decades the values above 0 span (log10 of largest over smallest); 0 for fewer than two. */
export function decadesSpanned(values: ReadonlyArray<number | null | undefined>): number {
  let lo = Infinity;
  let hi = 0;
  for (const v of values)
    if (typeof v === "number" && Number.isFinite(v) && v > 0) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  return Number.isFinite(lo) && hi > lo ? Math.log10(hi / lo) : 0;
}

/** Whether the values span more than `LOG_DECADES` decades: a linear axis then hides the small ones. */
export const wantsLogOption = (values: ReadonlyArray<number | null | undefined>) =>
  decadesSpanned(values) > LOG_DECADES;

/**
 * The start of a log axis: the power of ten at or below the smallest value above 0, so every bar
 * shows (a log axis cannot place 0, where a bar or a stack's lowest band starts; it is cut there).
 * 1 when no value is above 0.
 */
export function logFloor(values: ReadonlyArray<number | null | undefined>): number {
  let min = Infinity;
  for (const v of values) if (typeof v === "number" && Number.isFinite(v) && v > 0) min = Math.min(min, v);
  return Number.isFinite(min) ? 10 ** Math.floor(Math.log10(min)) : 1;
}

/** The running totals of a stack's bands, in order (a band not recorded adds nothing): where each ends. */
export function stackEnds(values: ReadonlyArray<number | null | undefined>): number[] {
  let total = 0;
  return values.map((v) => (total += typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0));
}

/**
 * A value in its unit, as a figure's tooltip, table and bar labels write it, on the page and in
 * the report (components/charts/figure-props.ts reads it as `unitFormat`).
 */
export function unitText(unit: string): (v: number) => string {
  if (unit === "ms") return formatMs;
  if (unit === "s") return (v) => `${Number(v.toFixed(Math.abs(v) >= 100 ? 0 : 1))} s`;
  if (unit === "%") return (v) => `${v.toFixed(1)}%`;
  // A throughput at its figure's decimals (194.51 tok/s, as every page writes it).
  return (v) => (unit ? `${formatFigure(v, unit, 3)} ${unit}` : formatNumber(v, 3));
}

const BYTE_UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/**
 * A bar's value as its label and tooltip write it: in its own unit where the axis's unit is one
 * of a family (bytes, byte rates), so 0.005 on a GB/s axis reads "5 MB/s", as the value it is,
 * not "0.005 GB/s"; otherwise as `unitText` writes it. The axis's ticks keep one unit
 * (`unitText`), which the table's header names.
 */
export function valueText(unit: string): (v: number) => string {
  const rate = unit.endsWith("/s");
  const power = BYTE_UNITS.indexOf((rate ? unit.slice(0, -2) : unit) as (typeof BYTE_UNITS)[number]);
  if (power < 0) return unitText(unit);
  return (v) => `${formatBytes(v * 1000 ** power)}${rate ? "/s" : ""}`;
}

/**
 * Values written together, as a chart's bar labels or its stacks' totals: durations in one unit
 * and one number of decimals for all of them (`formatMsAlike`: "Σ 1.500 ms" beside "Σ 1.250 ms",
 * never "Σ 1.5 ms" beside "Σ 1.25 ms"); other units as `valueText` writes each (a throughput at
 * its figure's fixed decimals, a byte count in its own unit).
 */
export function valueTextAlike(
  unit: string,
  values: ReadonlyArray<number | null | undefined>,
): (v: number) => string {
  if (unit !== "ms") return valueText(unit);
  // The unit and decimals formatMsAlike would pick for them all, chosen once.
  const { unit: u, digits } = timeUnitFor(values);
  return (v) => `${formatFixed(u === "s" ? v / 1000 : v, digits)} ${u}`;
}

const COMPACT = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
  [1e3, "K"],
] as const;

/**
 * A count in a compact form for a phone's width: "1.28 B" for 1,280,000,000, "9.6 K" for 9,600,
 * three significant digits; below 1,000 as it is. The tooltip and the table keep the exact value.
 */
export function compactNumber(v: number): string {
  const abs = Math.abs(v);
  for (const [p, s] of COMPACT)
    if (abs >= p) return `${(v / p).toLocaleString("en-US", { maximumSignificantDigits: 3 })} ${s}`;
  return formatNumber(v, 3);
}

/** Whether a unit has a shorter form of its own (a duration, a percentage, bytes): no compact form then. */
const ownForm = (unit: string) =>
  unit === "ms" ||
  unit === "s" ||
  unit === "%" ||
  BYTE_UNITS.includes((unit.endsWith("/s") ? unit.slice(0, -2) : unit) as (typeof BYTE_UNITS)[number]);

/**
 * A bar's value label on a phone: a count in its compact form with its unit ("1.28 B tokens", not
 * "1,280,000,000 tokens", which left a 50 px plot beside it); other units as `valueText` writes them.
 */
export function compactValueText(unit: string): (v: number) => string {
  if (ownForm(unit)) return valueText(unit);
  return (v) => (unit ? `${compactNumber(v)} ${unit}` : compactNumber(v));
}

/**
 * A value axis's tick on a phone: a count in its compact form without the unit, which the axis's
 * title names ("1.5 B" under "KV capacity (tokens)"); other units as `unitText` writes them.
 */
export function compactTickText(unit: string): (v: number) => string {
  return ownForm(unit) ? unitText(unit) : compactNumber;
}
