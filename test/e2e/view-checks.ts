/**
 * What the browser tests check on a view as a reader sees it, one page visit serving every check
 * (honest-views.test.ts walks every view of every run once and runs them all):
 * - emptySurfaces: no chart frame without data marks;
 * - readableProblems: each number axis has a title with its unit and round ticks (a step of 1, 2,
 *   2.5 or 5 × 10ⁿ), no text is in scientific notation, counts take the right plural and ordinals
 *   the right suffix, and each drawn chart and table of figures says which window, requests and
 *   method it uses (docs/metrics.md §Readable numbers);
 * - labelClashes: no chart label leaves its drawing, overlaps another, or sits on a bar;
 * - internalNames: no snake_case, camelCase or dotted word in the visible text outside code,
 *   definitions, screen-reader text and tooltips, unless it is a producer's own name listed on
 *   purpose, and no definition line written as a list of keys.
 */
import type { Page } from "playwright-core";
import { ordinal } from "@/lib/format-number";
import { settleLayout } from "./harness";

/**
 * What the page says of itself while a view is still on its way, or null once it is done: the app
 * not hydrated yet, queries or changes in flight (`data-fetching` on the root, which the app keeps
 * to the number of them), something marked busy (`aria-busy`, a chart whose scope is pending), a
 * view whose code is still loading (its preview in the live panel), or a slot saying "Loading …".
 * With `done` true it answers whether the view is done instead (for waitForFunction: the page's
 * policy allows no script from a string).
 */
function viewUnderway(done: boolean): string | boolean | null {
  const why = ((): string | null => {
    const root = document.documentElement;
    if (root.dataset.hydrated === undefined) return "not hydrated";
    if (root.dataset.fetching !== "0") return `${root.dataset.fetching ?? "?"} queries in flight`;
    const busy = document.querySelector('[aria-busy="true"]');
    if (busy) return `busy: ${busy.getAttribute("data-chart") ?? busy.tagName.toLowerCase()}`;
    if (document.querySelector('#run-view-live [data-testid="view-preview"]'))
      return "the view's code is loading";
    const loading = /Loading [^…]*…/.exec(document.body.innerText);
    return loading ? `"${loading[0]}"` : null;
  })();
  return done ? why === null : why;
}

/** Rounds of "done, then a settled layout" settleView allows before it gives up. */
const SETTLE_ROUNDS = 5;

/**
 * Waits until the view is done by its own account (viewUnderway: hydrated, no query in flight,
 * nothing busy or loading) and its layout has settled (settleLayout: the charts drawn after the
 * first have taken their boxes and stand still), and is still done after that: a chart drawn after
 * the first has painted may start its own query while the layout settles, and is waited for too.
 */
export async function settleView(page: Page): Promise<void> {
  await page.getByRole("tabpanel").or(page.locator("main")).first().waitFor();
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  let last: string | null = null;
  for (let round = 0; round < SETTLE_ROUNDS; round++) {
    try {
      await page.waitForFunction(viewUnderway, true, { timeout: 60_000 });
    } catch (e) {
      last = String(await page.evaluate(viewUnderway, false));
      throw new Error(`waited 60 s for the view to be done; it still says ${last}`, { cause: e });
    }
    await settleLayout(page);
    const why = await page.evaluate(viewUnderway, false);
    if (why === null) return;
    last = String(why);
  }
  throw new Error(`the view was still underway after ${SETTLE_ROUNDS} settled layouts: ${last}`);
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

/**
 * The producer's own names, shown on purpose: a reader types them, greps for them or looks for
 * them in their own files, so words would hide what to look for.
 */
const PRODUCER_NAMES: Record<string, readonly string[]> = {
  // Files a view asks to upload, and the files listed on the Files view: their names on disk.
  "file names": [
    "profile_export",
    "profile_export_aiperf",
    "profile_export_aiperf_timeslices",
    "server_metrics_export",
    "gpu_telemetry_export",
    "perf_metrics",
    "server.log",
    "inputs.json",
    "tar.gz",
    "bench_serving",
    "dynamo_frontend_metrics",
    "dynamo_trtllm_worker_metrics",
  ],
  // Server metrics named in a view's "how measured" or "upload … with" note: the series to look
  // for in a scrape.
  "metric names": [
    "kv_offload_store_bytes",
    "kv_offload_load_bytes",
    "kv_offload_total_bytes",
    "kv_offload_bytes_gpu_to_cpu",
    "kv_offload_bytes_cpu_to_gpu",
    "load_bytes",
    "kv_cache_offload",
    "cache_config_info",
    "prefix_cache_hits",
    "prefix_cache_queries",
    "external_prefix_cache_hits",
    "external_prefix_cache_queries",
    "kv_cache_usage_perc",
    "max_total_num_tokens",
    "token_usage",
    "cached_tokens",
    "prompt_tokens_by_source",
    "usage_prompt_cache_read_tokens",
    "trtllm_prompt_cached_tokens",
    "trtllm_prompt_tokens",
    "trtllm_kv_cache_hit_rate",
    "trtllm_kv_cache_max_blocks",
    "trtllm_kv_cache_utilization",
    "tokens_per_block",
    "dynamo_component_router_kv_hit_rate",
    "inference_extension_prefix_indexer_hit_ratio",
    "theoretical_prefix_cache_hit",
  ],
  // Record fields a note names so a reader can check their own records (the join keys of a
  // disaggregated request, the fields a multi-turn view needs, the stamps a segment spans).
  "record fields": [
    "conversation_id",
    "turn_index",
    "x_correlation_id",
    "parent_correlation_id",
    "agent_context",
    "agent_depth",
    "hash_ids",
    "disagg_request_id",
    "ctx_request_id",
    "usage.prompt_tokens_details.cached_tokens",
    "prompt_tokens",
    "prompt_cached_tokens",
    "total_osl",
    "request_count",
    "benchmark_duration",
    "kv_cache_metrics",
    "kv_cache_size",
    "step_metrics",
    "time_breakdown_metrics",
    "first_iter",
    "last_iter",
    "start_time",
    "end_time",
    "last_token_time",
    "server_first_token_time",
    "disagg_server_arrival_time",
    "disagg_server_first_token_time",
    "total_blocks",
  ],
  // TensorRT-LLM's time-breakdown segments, named as its perf metrics name them.
  "segment names": [
    "ctx_preprocessing",
    "ctx_queue",
    "ctx_processing",
    "ctx_postprocessing",
    "disagg_preprocessing",
    "disagg_relay",
    "disagg_postprocessing",
    "gen_preprocessing",
    "gen_queue_wait",
    "gen_kv_transfer",
    "gen_post_transfer",
    "gen_postprocessing",
  ],
  // Settings as they are written in an engine's configuration or environment.
  settings: [
    "return_perf_metrics",
    "enable_iter_perf_stats",
    "publish_kv_events",
    "DYN_LOG",
    "block_size",
    "gpu_memory_utilization",
    "prefix_caching",
    "publish_events_and_metrics",
  ],
  // Not identifiers: a product's and a unit's own spelling, Latin abbreviations.
  spellings: ["vLLM", "kJ", "e.g", "i.e"],
};
const ALLOWED = new Set(Object.values(PRODUCER_NAMES).flat());

/**
 * A listed name, or a listed file's name with its extension ("gpu_telemetry_export.jsonl"), or
 * the start of one a narrow label cut short ("perf_metri…", "trtllm_kv_cache_…").
 */
function allowed(word: string): boolean {
  const stem = word.replace(/\.(jsonl|json|csv|prom|log|out|yaml|yml|txt|gz)$/, "");
  if (ALLOWED.has(word) || ALLOWED.has(stem)) return true;
  return stem.length >= 8 && [...ALLOWED].some((n) => n.startsWith(stem));
}

/** snake_case (any case), camelCase, or dotted lower-case words ("input_config.input.random_seed"). */
const IDENTIFIER =
  /[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?:\.[A-Za-z0-9_]+)*|\b[a-z]+[A-Z][A-Za-z0-9]*|\b[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+/g;

/** Where a producer's name is at home: code, definitions, screen-reader text. */
const EXEMPT = "code, kbd, samp, pre, dfn, [data-definition], [data-testid=chart-definition], .sr-only";

/** Each visible text node's text, outside the exempt elements (tooltips are attributes, not read). */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate((exempt) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      const el = n.parentElement;
      if (!text || !el || el.closest(exempt) || el.closest("script, style, noscript, template")) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      out.push(text);
    }
    return out;
  }, EXEMPT);
}

/** What internalNames found on one page, each prefixed by `where`. */
export interface InternalNames {
  /** Identifiers in the visible text, with the text they are in. */
  names: string[];
  /** Chart definition lines written as a list of keys ("window: … · requests: …"). */
  keyLists: string[];
}

/**
 * The page's internal identifiers on screen (see the top of this file): every visible text node
 * outside the exempt elements, and every chart's definition line, read as a person sees them.
 */
export async function internalNames(page: Page, where: string): Promise<InternalNames> {
  const names: string[] = [];
  const keyLists: string[] = [];
  for (const text of await visibleTexts(page))
    for (const m of text.matchAll(IDENTIFIER))
      if (!allowed(m[0])) names.push(`${where}: "${m[0]}" in "${text.slice(0, 160)}"`);
  // A chart's definition line is a sentence, not a list of keys ("window: … · requests: … ·
  // method: …"); a colon inside a sentence ("10 of 64 requests: the records …") is prose.
  for (const d of await page.getByTestId("chart-definition").allTextContents())
    if (/^\s*(window|requests|method): |\s·\s(window|requests|method): /.test(d))
      keyLists.push(`${where}: "${d.slice(0, 120)}"`);
  return { names, keyLists };
}

/** What a run header says of its facts: record fields named in an entry, and the joins entry. */
export interface HeaderFacts {
  /** "run › field in text" for each record field an entry's name or value writes */
  fields: string[];
  /** The TensorRT-LLM joins entry's text and tooltip, where the run has one */
  joins: { text: string; title: string | null } | null;
}

/**
 * The run header's facts (`run-info`), read for record fields: an entry says its fact in words
 * ("TensorRT-LLM requests joined: 600 by disagg request id", not "TRT-LLM joins 600 by
 * disagg_request_id"); the fields it comes from may be in its tooltip.
 */
export async function headerFacts(page: Page, where: string): Promise<HeaderFacts> {
  const info = page.getByTestId("run-info");
  const fields: string[] = [];
  if ((await info.count()) === 0) return { fields, joins: null };
  for (const text of await info.locator("dt, dd").allInnerTexts())
    for (const f of PRODUCER_NAMES["record fields"])
      if (new RegExp(`\\b${f.replace(/\./g, "\\.")}\\b`).test(text))
        fields.push(`${where}: "${f}" in "${text}"`);
  const joins = info.locator('[data-info="TRT-LLM joins"]');
  if ((await joins.count()) === 0) return { fields, joins: null };
  return { fields, joins: { text: await joins.innerText(), title: await joins.getAttribute("title") } };
}
