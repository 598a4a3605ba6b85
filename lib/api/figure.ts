/**
 * A renderer-neutral figure: what a chart says, in words, units, series and colour tokens, with
 * nothing of how it is drawn. The page's chart kit (`components/charts/chart-figure.tsx`) and the
 * offline report's SVG (`lib/runs/report/figure-kit.ts`, `reportFigure`) both draw it, so a
 * figure's title, axes, units, series names and colours are written once (docs/architecture.md
 * §One figure description, two renderers). A leaf: the browser bundles it.
 */

/** Which window, requests and method a figure uses, the line under its description (docs/metrics.md §Requests). */
export interface FigureDefinition {
  /** The time span the figure covers: profiling phase, scrape intervals, telemetry samples. */
  window?: string;
  /** Which requests it counts. */
  requests?: string;
  /** How it is computed: counters or a gauge, bytes over transfer time or over the window. */
  method?: string;
}

/** Words that open a sentence as they are written (a tool's own spelling). */
const KEEP_CASE = /^(aiperf|vLLM|SGLang|GuideLLM|genai-perf|InferenceX|TTFT|ITL|TPOT|E2E|GPU|KV|DCGM)\b/;

/**
 * The definition line as the page and the report write it, one sentence: over which window,
 * which requests, then how ("Over the profiling phase, successful profiling requests (errors and
 * warm-up excluded); client-side timings from aiperf's records."), never "window: … · requests: …".
 */
export function definitionText(d: FigureDefinition): string {
  const w = d.window ?? "";
  // "from the first request …" and "none: …" say their own preposition; "profiling phase" takes "the".
  const window = /^(from |none\b)/.test(w)
    ? w.replace(/^none:\s*/, "no window: ")
    : w
      ? `over ${/^profiling phase/.test(w) ? "the " : ""}${w}`
      : "";
  const who = [window, d.requests].filter(Boolean).join(", ");
  const text = [who, d.method].filter(Boolean).join("; ");
  if (text === "") return "";
  const opened = KEEP_CASE.test(text) ? text : text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(opened) ? opened : `${opened}.`;
}

export const AIPERF_SUCCESSFUL: FigureDefinition = {
  window: "profiling phase",
  requests: "successful profiling requests (errors and warm-up excluded)",
  method: "client-side timings from aiperf's records",
};

export const TRTLLM_COMPLETED: FigureDefinition = {
  window: "all of the perf-metrics files (the server marks no profiling phase)",
  requests: "completed requests (warm-up included: the server cannot tell it apart)",
  method: "server stamps, no network or client time",
};

export const SERVER_COUNTERS: FigureDefinition = {
  window: "profiling phase of each endpoint (see the Endpoints table)",
  requests: "all traffic the server saw, any client, failed and warm-up requests included",
  method: "counter deltas over the window",
};

/**
 * The imported benchmark tool a run's requests come from (vLLM, SGLang, GuideLLM, genai-perf,
 * InferenceX: `info.benchmarkTool`), or null for aiperf's own: whose words the labels use.
 */
export function benchmarkTool(info: Record<string, unknown>): string | null {
  return typeof info.benchmarkTool === "string" && info.benchmarkTool !== "" ? info.benchmarkTool : null;
}

/** The definition of per-request figures in the words of the tool that measured them. */
export function requestsDefinition(tool: string | null, source?: string): FigureDefinition {
  if (tool === null) return AIPERF_SUCCESSFUL;
  if (source === "tool-summary")
    return {
      window: `${tool}'s benchmark`,
      requests: `successful requests as ${tool} counted them`,
      method: `${tool}'s own summary statistics`,
    };
  return {
    window: `${tool}'s benchmark${tool === "GuideLLM" ? " (its measurement window)" : ""}`,
    requests: `successful requests (errors${tool === "GuideLLM" ? ", warm-up and cool-down" : ""} excluded)`,
    method: `client-side timings from ${tool}'s per-request results`,
  };
}

/**
 * Every colour token of a figure, one per colour variable of app/globals.css, light and dark, in
 * the stylesheet's order: the page draws `var(--token)`; the report, a page without the app's
 * stylesheet, writes the value of its theme. test/unit/figure-description.test.ts holds this map
 * to the stylesheet, family by family.
 */
const FIGURE_COLOURS = {
  // The chart colours (`--chart-N`).
  "chart-1": { light: "#4f46e5", dark: "#818cf8" },
  "chart-2": { light: "#0891b2", dark: "#22d3ee" },
  "chart-3": { light: "#d97706", dark: "#fbbf24" },
  "chart-4": { light: "#db2777", dark: "#f472b6" },
  "chart-5": { light: "#16a34a", dark: "#4ade80" },
  "chart-6": { light: "#7c3aed", dark: "#a78bfa" },
  "chart-7": { light: "#dc2626", dark: "#f87171" },
  "chart-8": { light: "#475569", dark: "#94a3b8" },
  // The endpoint roles' (`--role-*`): a bar per endpoint or worker is drawn in its role's colour.
  "role-prefill": { light: "#2563eb", dark: "#60a5fa" },
  "role-decode": { light: "#ea580c", dark: "#fb923c" },
  "role-combined": { light: "#16a34a", dark: "#4ade80" },
  "role-frontend": { light: "#7c3aed", dark: "#a78bfa" },
  "role-router": { light: "#9333ea", dark: "#c084fc" },
  // The time-breakdown segments' (`--seg-*`), checked there for colour-blind safety and contrast.
  "seg-disagg-preprocessing": { light: "#888899", dark: "#dddddd" },
  "seg-ctx-preprocessing": { light: "#5599cc", dark: "#99ddff" },
  "seg-ctx-queue": { light: "#889900", dark: "#eedd44" },
  "seg-ctx-processing": { light: "#332288", dark: "#6655cc" },
  "seg-ctx-postprocessing": { light: "#3377ff", dark: "#77aadd" },
  "seg-disagg-relay": { light: "#666633", dark: "#777744" },
  "seg-gen-preprocessing": { light: "#556655", dark: "#aaaa00" },
  "seg-gen-queue": { light: "#444400", dark: "#888800" },
  "seg-gen-queue-wait": { light: "#995577", dark: "#ee99aa" },
  "seg-gen-kv-transfer": { light: "#771144", dark: "#aa4477" },
  "seg-gen-post-transfer": { light: "#994499", dark: "#cc77aa" },
  "seg-gen-postprocessing": { light: "#6611ff", dark: "#aa66ff" },
  "seg-disagg-postprocessing": { light: "#441111", dark: "#ee5577" },
  "seg-decode": { light: "#119977", dark: "#119977" },
  // The text colour (`--fg`): a mark that is no series (the p50 of a histogram drawn in a segment's colour).
  fg: { light: "#0f172a", dark: "#e2e8f0" },
} as const;

type Colours = typeof FIGURE_COLOURS;
type Family<P extends string> = { [K in keyof Colours as K extends `${P}${string}` ? K : never]: Colours[K] };

/** The tokens of one family, by their common prefix. */
function family<P extends string>(prefix: P): Family<P> {
  return Object.fromEntries(
    Object.entries(FIGURE_COLOURS).filter(([k]) => k.startsWith(prefix)),
  ) as Family<P>;
}

export const CHART_COLOURS = family("chart-");
export const SEGMENT_COLOURS = family("seg-");
export const ROLE_COLOURS = family("role-");
export const FG_COLOUR = { fg: FIGURE_COLOURS.fg } as const;

export type ColourToken = keyof typeof FIGURE_COLOURS;
export type Theme = "light" | "dark";

/** A time-breakdown segment's token (`ctx_queue` → `seg-ctx-queue`); an unknown segment is drawn grey. */
export function segmentToken(name: string): ColourToken {
  const token = `seg-${name.replace(/_/g, "-")}`;
  return token in SEGMENT_COLOURS ? (token as ColourToken) : "chart-8";
}

/** An endpoint role's token (`prefill` → `role-prefill`). */
export const roleToken = (role: keyof typeof ROLE_TOKEN_OF): ColourToken => ROLE_TOKEN_OF[role];
const ROLE_TOKEN_OF = {
  prefill: "role-prefill",
  decode: "role-decode",
  combined: "role-combined",
  frontend: "role-frontend",
  router: "role-router",
} as const satisfies Record<string, ColourToken>;

/** The CSS a page draws a token with. */
export const tokenVar = (token: ColourToken) => `var(--${token})`;

/** The colour a token has in a theme, for a renderer without the stylesheet (the report). */
export const tokenColour = (token: ColourToken, theme: Theme = "light") => FIGURE_COLOURS[token][theme];

export interface FigureAxis {
  /** The quantity, without its unit ("Request start") */
  label: string;
  /** "" for a count without unit */
  unit: string;
  /** The span the axis shows, when not from 0 to its round top (a distribution's bins, a percent) */
  domain?: readonly [number, number];
  /** A count: ticks on whole numbers only */
  integers?: boolean;
  /**
   * Bars whose values span more than two decades (lib/metrics/bar-labels.ts `wantsLogOption`):
   * the page offers a log value axis beside the linear one it and the report draw first
   */
  logOption?: boolean;
}

/** A histogram's bin: [lo, hi) holds `count` of what the figure counts. */
export interface FigureBin {
  lo: number;
  hi: number;
  count: number;
}

/** A named level on the y axis, drawn as a dashed line across the plot (a capacity, a request-level rate). */
export interface FigureLevel {
  y: number;
  label: string;
}

/** A named position on the x axis, drawn as a dashed line (a percentile of a distribution). */
export interface FigureMark {
  x: number;
  label: string;
  colour: ColourToken;
}

export interface FigureSeries {
  /** A stable key (a CSV column, a legend entry's id) */
  key: string;
  /** The name a legend, a tooltip and a table column say */
  name: string;
  colour: ColourToken;
  /** This line alone drawn as steps (a bucket's peak, held until the next) */
  step?: boolean;
  /**
   * Lines and scatters: measured on the figure's right axis (`y2`) instead of `y`; both renderers
   * draw it dashed and name it with "(right axis)" (`seriesLabel`)
   */
  axis?: "y2";
  /** [x, y]; y null = not recorded at that x (not drawn, never 0) */
  points: ReadonlyArray<readonly [number, number | null]>;
}

export interface FigureTable {
  columns: string[];
  /** Numbers as recorded, a bar's category by its name; null = not recorded */
  rows: Array<Array<number | string | null>>;
}

export interface FigureDescription {
  /** Stable id: the report's anchor (one per chart and metric) */
  id: string;
  /** The page's name of the chart (its `data-chart`) and the stem of its exported files */
  exportName: string;
  /**
   * scatter: points; line: each series joined in x order; histogram: one bar per bin of `bins`
   * (its one series names and colours the bars, a point per bin centre); bars: one row per
   * category of `categories`, the series side by side (a point's x is its category's index, `x`
   * names the categories and `y` is the value axis); stacked: one column per category of
   * `categories`, left to right, the series stacked bottom to top in their order (a point's x is
   * its category's index; a category without a point has no band of that series, a null point is
   * a band not recorded)
   */
  kind: "scatter" | "line" | "histogram" | "bars" | "stacked";
  title: string;
  /** One sentence under the title: what a point is, the sample */
  description: string;
  definition: FigureDefinition;
  /** What is absent and which file or flag gives it, shown in place of the plot when it has no mark */
  missing: string;
  x: FigureAxis;
  y: FigureAxis;
  /**
   * Lines and scatters: a second value axis, on the right, for the series that say `axis: "y2"`
   * (requests/s beside output tokens/s, end-to-end latency beside TTFT): another unit, or a scale
   * that would flatten the left axis's series into its bottom tenth
   */
  y2?: FigureAxis;
  series: FigureSeries[];
  /** Whether the page shows a legend (one series needs none: the title names it) */
  legend: boolean;
  /** A histogram's bins, in x order */
  bins?: readonly FigureBin[];
  /** Bars' categories, in the order drawn (a series' point [i, v] is category i's bar), full names */
  categories?: readonly string[];
  /**
   * Bars of one series: each category's own colour (an endpoint's or a worker's role), over the
   * series' colour
   */
  categoryColours?: readonly ColourToken[];
  /**
   * Bars: a note after a category's name on the axis ("n/a (decode)": why a bar of no length has
   * none), null for none; said by both renderers beside the name, not in the table
   */
  categoryNotes?: ReadonlyArray<string | null>;
  /**
   * Bars: the page cuts category names to this many characters, keeping what tells them apart
   * (lib/metrics/short-labels.ts), the full name its hover title; the report has room for them whole
   */
  shortNames?: number;
  /**
   * Bars: more columns of the table and CSV after the category, not drawn (a bar's role, the
   * counts behind a rate), one value per category
   */
  tableColumns?: ReadonlyArray<{ label: string; values: ReadonlyArray<number | string | null> }>;
  /** A line drawn as steps (a cumulative distribution) */
  step?: boolean;
  /** Named positions on the x axis (the p50 … p99 of a distribution) */
  marks?: readonly FigureMark[];
  /** Lines and scatters: named levels on the y axis (a capacity), in the muted text colour */
  levels?: readonly FigureLevel[];
  /** A step line's last step holds until this x (its last bucket's end), not ending where it starts */
  stepEnd?: number;
  /**
   * Lines: the series stacked as filled bands, bottom to top in their order (shares adding up to
   * 100 %); a null point is no band there, never a 0
   */
  bands?: boolean;
  /** Stacked: one horizontal bar per category, named down the side (a few, each read on its own) */
  horizontal?: boolean;
  /**
   * Stacked: each stack's total written past its end after this sign ("Σ": a sum of statistics is
   * not the statistic of the total), as both renderers write a bar's value
   */
  stackTotal?: string;
  /**
   * Stacked: the table (and CSV) has a row per series, named in a column `label`, then a column
   * per category and `columns` (one value per series), not a row per category
   */
  tableBySeries?: {
    label: string;
    columns?: ReadonlyArray<{ label: string; values: ReadonlyArray<number | string | null> }>;
  };
}

/**
 * Bars' categories named as both renderers write them: `names` (the whole names, or the page's
 * short ones) each with its note after it ("prefill-0 · n/a (decode)").
 */
export function notedCategories(
  f: FigureDescription,
  names: readonly string[] = f.categories ?? [],
): string[] {
  return names.map((name, i) => {
    const note = f.categoryNotes?.[i];
    return note ? `${name} · ${note}` : name;
  });
}

/** Whether a series is drawn against the right axis: it says so, and the figure, a line or a scatter, has one. */
export const onRightAxis = (f: FigureDescription, s: FigureSeries) =>
  s.axis === "y2" && f.y2 !== undefined && (f.kind === "line" || f.kind === "scatter");

/** The axis a series is measured on: the right one (`y2`) where it is drawn against it. */
export const seriesAxis = (f: FigureDescription, s: FigureSeries): FigureAxis =>
  onRightAxis(f, s) && f.y2 ? f.y2 : f.y;

/**
 * A series' name as both renderers' legends and tooltips say it: a series on the right axis says
 * so, so two lines of one chart are never read against the wrong scale.
 */
export const seriesLabel = (f: FigureDescription, s: FigureSeries) =>
  onRightAxis(f, s) ? `${s.name} (right axis)` : s.name;

/** A figure's table (and CSV): one column per series, units in the headers. */
export function figureTable(f: FigureDescription): FigureTable {
  const head = (a: FigureAxis, name = a.label) => (a.unit ? `${name} (${a.unit})` : name);
  // A histogram's table has a row per bin: its edges and its count.
  if (f.kind === "histogram")
    return {
      columns: [head(f.x, `${f.x.label} from`), head(f.x, "to"), head(f.y, f.series[0]?.name ?? f.y.label)],
      rows: (f.bins ?? []).map((b) => [b.lo, b.hi, b.count]),
    };
  // A stack of a few categories read by its bands (the segments at a statistic): a row per band.
  if (f.kind === "stacked" && f.tableBySeries) {
    const { label, columns = [] } = f.tableBySeries;
    const categories = f.categories ?? [];
    return {
      columns: [label, ...categories.map((c) => head(f.y, c)), ...columns.map((c) => c.label)],
      rows: f.series.map((s, si) => [
        s.name,
        ...categories.map((_, i) => s.points.find(([x]) => x === i)?.[1] ?? null),
        ...columns.map((c) => c.values[si] ?? null),
      ]),
    };
  }
  // Bars' (and stacked columns') table has a row per category, its own columns, a column per series.
  if (f.kind === "bars" || f.kind === "stacked") {
    const extra = f.tableColumns ?? [];
    return {
      columns: [f.x.label, ...extra.map((c) => c.label), ...f.series.map((s) => head(f.y, s.name))],
      rows: (f.categories ?? []).map((c, i) => [
        c,
        ...extra.map((col) => col.values[i] ?? null),
        ...f.series.map((s) => s.points.find(([x]) => x === i)?.[1] ?? null),
      ]),
    };
  }
  // A scatter's table has a row per point (two requests may start at the same second); a point
  // with no value is not one. A line's merges its series by x.
  if (f.kind === "scatter")
    return {
      columns: [head(f.x), ...f.series.map((s) => head(seriesAxis(f, s), s.name))],
      rows: f.series.flatMap((s, i) =>
        s.points.flatMap(([x, y]) =>
          y === null ? [] : [[x, ...f.series.map((_, j) => (j === i ? y : null))]],
        ),
      ),
    };
  const xs = new Map<number, Array<number | null>>();
  f.series.forEach((s, i) => {
    for (const [x, y] of s.points) {
      const row = xs.get(x) ?? f.series.map(() => null);
      row[i] = y;
      xs.set(x, row);
    }
  });
  return {
    columns: [head(f.x), ...f.series.map((s) => head(seriesAxis(f, s), s.name))],
    rows: [...xs.entries()].sort((a, b) => a[0] - b[0]).map(([x, ys]) => [x, ...ys]),
  };
}
