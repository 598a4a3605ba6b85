/**
 * The console text benchmark tools print, which users save beside their JSON results
 * (docs/formats.md §Console text of benchmark tools): `vllm bench serve`'s "Serving Benchmark
 * Result" block and the failed requests it prints before it (vllm/benchmarks/serve.py), SGLang
 * `bench_serving`'s block of the same name (python/sglang/bench_serving.py), and GuideLLM
 * 0.2/0.3's "Benchmarks Info" and "Benchmarks Stats" tables. Detected by content, never by name.
 *
 * A console is no run of its own: its lines are matched to the result they print (by the numbers
 * both state) and add what the result file lacks, in the tool's own words.
 */

export type ConsoleTool = "vLLM bench serve" | "SGLang bench_serving" | "GuideLLM";

/** One printed line: the tool's label ("Max ITL (ms)") and its value as printed ("388.38"). */
export interface ConsoleLine {
  label: string;
  value: string;
}

/** One benchmark's printed summary: vLLM/SGLang print one block per run, GuideLLM a table row. */
export interface ConsoleBlock {
  /** The benchmark's name in the table (GuideLLM's "synchronous"), else null */
  label: string | null;
  lines: ConsoleLine[];
}

export interface BenchConsole {
  tool: ConsoleTool;
  blocks: ConsoleBlock[];
  /**
   * The failed requests vLLM prints before its block ("Failed requests during benchmark run
   * detected (capping to 10):" then "Error i: …"): each error's last line, grouped, with counts.
   */
  printedErrors: { cap: number; printed: number; reasons: Array<{ reason: string; count: number }> } | null;
}

/**
 * The figures a console block shares with its tool's result file, as printed (so the match is at
 * the printed precision): successful and failed requests, duration, token totals, mean TTFT.
 */
export type ConsoleFigures = Partial<Record<FigureKey, string>>;
export type FigureKey = "completed" | "failed" | "durationS" | "inputTokens" | "outputTokens" | "ttftMeanMs";

const LINE_END = /\r\n|\r|\n/;
/** `print("{s:{c}^{n}}".format(s=" Serving Benchmark Result ", n=50, c="="))` */
const RESULT_HEADER = /^=+ Serving Benchmark Result =+\s*$/;
/** `print("{:<40} {:<10}".format("Successful requests:", …))`: a label ending in ":" and a value. */
const RESULT_LINE = /^(\S[^:]*?):\s+(\S+)\s*$/;
const VLLM_ERRORS = /^Failed requests during benchmark run detected \(capping to (\d+)\):\s*$/;
const VLLM_ERROR = /^Error (\d+): ?(.*)$/;

/** Which tool printed this text, or null when it is no benchmark console. */
export function benchConsoleTool(text: string): ConsoleTool | null {
  const lines = text.split(LINE_END, 5000);
  const at = lines.findIndex((l) => RESULT_HEADER.test(l.trim()));
  if (at >= 0) {
    const block = lines.slice(at + 1, at + 60);
    if (!block.some((l) => /^Successful requests:\s+\d+/.test(l.trim()))) return null;
    // SGLang prints its backend, "E2E Latency" and "Max ITL"; vLLM "E2EL" and "Failed requests".
    return block.some((l) => /^(Backend:|Mean E2E Latency \(ms\):|Max ITL \(ms\):)/.test(l.trim()))
      ? "SGLang bench_serving"
      : "vLLM bench serve";
  }
  const info = lines.some((l) => l.trim() === "Benchmarks Info:");
  const stats = lines.some((l) => l.trim() === "Benchmarks Stats:");
  return info || stats ? (guidellmTables(lines).length > 0 ? "GuideLLM" : null) : null;
}

export function parseBenchConsole(text: string): BenchConsole | null {
  const tool = benchConsoleTool(text);
  if (!tool) return null;
  const lines = text.split(LINE_END);
  if (tool === "GuideLLM") {
    const blocks = guidellmTables(lines);
    return blocks.length > 0 ? { tool, blocks, printedErrors: null } : null;
  }
  const blocks: ConsoleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!RESULT_HEADER.test(lines[i].trim())) continue;
    const block: ConsoleLine[] = [];
    for (i++; i < lines.length; i++) {
      const l = lines[i].trim();
      // The block ends with `print("=" * 50)`; section rules ("----Time to First Token----") go on.
      if (/^=+$/.test(l)) break;
      const m = RESULT_LINE.exec(l);
      if (m) block.push({ label: m[1], value: m[2] });
    }
    if (block.length > 0) blocks.push({ label: null, lines: block });
  }
  return blocks.length > 0
    ? { tool, blocks, printedErrors: tool === "vLLM bench serve" ? vllmErrors(lines) : null }
    : null;
}

/** vLLM's printed failed requests: each error's last non-empty line is its reason. */
function vllmErrors(lines: string[]): BenchConsole["printedErrors"] {
  const start = lines.findIndex((l) => VLLM_ERRORS.test(l.trim()));
  if (start < 0) return null;
  const cap = Number(VLLM_ERRORS.exec(lines[start].trim())![1]);
  const errors: string[][] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const l = lines[i];
    if (RESULT_HEADER.test(l.trim()) || /^tip: /.test(l)) break;
    const m = VLLM_ERROR.exec(l);
    if (m) errors.push([m[2]]);
    else if (errors.length > 0) errors[errors.length - 1].push(l);
  }
  const counts = new Map<string, number>();
  for (const e of errors) {
    const last =
      [...e]
        .reverse()
        .find((l) => l.trim() !== "")
        ?.trim() ?? "";
    const reason = shortReason(last);
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  }
  return {
    cap,
    printed: errors.length,
    reasons: [...counts].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count),
  };
}

/**
 * An error's last line, without a trailing bracketed detail (a connection error lists each
 * address it tried, in varying order), so the same failure groups as one reason.
 */
function shortReason(line: string): string {
  let s = line.trim();
  if (s.endsWith("]")) {
    let depth = 0;
    for (let i = s.length - 1; i >= 0; i--) {
      if (s[i] === "]") depth++;
      else if (s[i] === "[" && --depth === 0) {
        s = s.slice(0, i).trim() || s;
        break;
      }
    }
  }
  return s.length > 160 ? `${s.slice(0, 157)}…` : s || "(empty error)";
}

/**
 * GuideLLM 0.2/0.3's console tables (src/guidellm/benchmark/output.py, `print_table`): a group
 * header whose names are followed by one `|` per column they span (the last group takes the
 * rest), a column header, a rule, then one row per benchmark; each cell is "Group column".
 */
function guidellmTables(lines: string[]): ConsoleBlock[] {
  const rows = new Map<string, ConsoleLine[]>();
  const order: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const title = lines[i].trim();
    if (title !== "Benchmarks Info:" && title !== "Benchmarks Stats:") continue;
    let k = i + 1;
    while (k < lines.length && !/^=+$/.test(lines[k].trim())) k++;
    const groupsLine = lines[k + 1];
    const colsLine = lines[k + 2];
    const rule = lines[k + 3];
    if (groupsLine === undefined || colsLine === undefined || !/^[-|]+$/.test((rule ?? "").trim())) continue;
    const cols = colsLine.split("|").map((c) => c.trim());
    const groups: string[] = [];
    const re = /([^|]+)(\|*)/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(groupsLine)) && groups.length < cols.length) {
      const name = m[1].trim();
      const span = m[2].length;
      if (name === "" && span === 0) break;
      for (let s = 0; s < Math.max(span, 1); s++) groups.push(name);
      if (span === 0) break;
    }
    while (groups.length < cols.length) groups.push(groups[groups.length - 1] ?? "");
    for (let r = k + 4; r < lines.length; r++) {
      const l = lines[r].trim();
      if (l === "" || /^=+$/.test(l)) break;
      const cells = lines[r].split("|").map((c) => c.trim());
      if (cells.length !== cols.length) continue;
      const name = cells[0];
      if (!rows.has(name)) {
        rows.set(name, []);
        order.push(name);
      }
      const out = rows.get(name)!;
      for (let c = 1; c < cells.length; c++)
        if (cells[c] !== "") out.push({ label: `${groups[c]} ${cols[c]}`.trim(), value: cells[c] });
    }
  }
  return order.map((name) => ({ label: name, lines: rows.get(name)! }));
}

/** Each tool's printed label for the figures a result file states too. */
const FIGURE_LABELS: Record<ConsoleTool, Partial<Record<FigureKey, string>>> = {
  "vLLM bench serve": {
    completed: "Successful requests",
    failed: "Failed requests",
    durationS: "Benchmark duration (s)",
    inputTokens: "Total input tokens",
    outputTokens: "Total generated tokens",
    ttftMeanMs: "Mean TTFT (ms)",
  },
  "SGLang bench_serving": {
    completed: "Successful requests",
    durationS: "Benchmark duration (s)",
    inputTokens: "Total input tokens",
    outputTokens: "Total generated tokens",
    ttftMeanMs: "Mean TTFT (ms)",
  },
  GuideLLM: {
    completed: "Requests Made Comp",
    durationS: "Metadata Duration (s)",
    inputTokens: "Prompt Tok Total Comp",
    outputTokens: "Output Tok Total Comp",
    ttftMeanMs: "TTFT (ms) mean",
  },
};

export function consoleFigures(tool: ConsoleTool, block: ConsoleBlock): ConsoleFigures {
  const out: ConsoleFigures = {};
  for (const [key, label] of Object.entries(FIGURE_LABELS[tool]) as Array<[FigureKey, string]>) {
    const line = block.lines.find((l) => l.label === label);
    if (line && /^-?\d+(\.\d+)?$/.test(line.value)) out[key] = line.value;
  }
  return out;
}

/**
 * Whether a result's figures are the ones a console block printed: the successful-request count
 * and at least one more figure agree at the printed precision, and none disagrees.
 */
export function figuresMatch(
  printed: ConsoleFigures,
  result: Partial<Record<FigureKey, number | null>>,
): boolean {
  let agree = 0;
  for (const [key, text] of Object.entries(printed) as Array<[FigureKey, string]>) {
    const v = result[key];
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    const dp = (text.split(".")[1] ?? "").length;
    if (Math.abs(v - Number(text)) > 0.5 * 10 ** -dp + 1e-9) return false;
    agree++;
  }
  return printed.completed !== undefined && result.completed != null && agree >= 2;
}

/** The printed lines a result file does not state, by tool: what a console adds to its run. */
const NOT_IN_RESULT: Record<ConsoleTool, RegExp | null> = {
  // vLLM's JSON holds every printed figure; what it lacks are the printed error reasons.
  "vLLM bench serve": null,
  // SGLang's JSON has no maximum ITL (bench_serving.py prints metrics.max_itl_ms only).
  "SGLang bench_serving": /^Max ITL \(ms\)$/,
  // GuideLLM's report holds every cell of its tables.
  GuideLLM: null,
};

/**
 * The run facts a matched console adds, keyed by the tool's own words ("SGLang bench_serving
 * console: Max ITL (ms)"), valued as printed.
 */
export function consoleFacts(
  c: BenchConsole,
  block: ConsoleBlock,
  failed: number | null,
): Record<string, string> {
  const facts: Record<string, string> = {};
  const only = NOT_IN_RESULT[c.tool];
  if (only)
    for (const l of block.lines) if (only.test(l.label)) facts[`${c.tool} console: ${l.label}`] = l.value;
  if (c.printedErrors && c.printedErrors.printed > 0) {
    const { cap, printed, reasons } = c.printedErrors;
    const of =
      failed !== null && failed > printed
        ? ` (the ${printed} it printed of ${failed} failed: vLLM prints at most ${cap})`
        : "";
    facts[`${c.tool} console: failed requests printed`] =
      reasons.map((r) => `${r.reason} × ${r.count}`).join("; ") + of;
  }
  return facts;
}
