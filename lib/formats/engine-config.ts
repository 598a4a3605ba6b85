/**
 * Which measurement collectors an engine config turns on (docs/metrics.md §Collectors): TRT-LLM
 * `return_perf_metrics` and `enable_iter_perf_stats`, Dynamo `--publish-kv-events`. Reads
 * TRT-LLM `extra-llm-api-config.yml`, Dynamo YAML (flags nested under per-component sections or
 * listed as CLI arguments) and the JSON forms of both. A key reader, not a YAML parser: only the
 * three flags matter, wherever they are nested.
 */
import type { Collectors } from "@/lib/api/schemas";

export interface EngineConfigFacts {
  collectors: Partial<Collectors>;
  /** Lines that name a collector flag but whose value is not a boolean we can read */
  unreadable: Array<{ line?: number; key: string; value: string }>;
}

/** Spellings per collector: snake_case keys, kebab-case CLI flags, and Dynamo's older name. */
const KEYS: Record<keyof Collectors, string[]> = {
  returnPerfMetrics: ["return_perf_metrics", "return-perf-metrics"],
  enableIterPerfStats: ["enable_iter_perf_stats", "enable-iter-perf-stats"],
  publishKvEvents: [
    "publish_kv_events",
    "publish-kv-events",
    "publish_events_and_metrics",
    "publish-events-and-metrics",
  ],
};

const COLLECTOR_OF = new Map<string, keyof Collectors>(
  (Object.entries(KEYS) as Array<[keyof Collectors, string[]]>).flatMap(([c, names]) =>
    names.map((n) => [n, c]),
  ),
);

const TRUE = new Set(["true", "yes", "on", "1"]);
const FALSE = new Set(["false", "no", "off", "0"]);

function readBool(raw: string): boolean | null {
  const v = raw
    .replace(/\s+#.*$/, "")
    .trim()
    .replace(/^["']|["']$/g, "")
    .toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return null;
}

/**
 * A flag set in several places (a prefill and a decode section) counts as on when any place
 * turns it on: the run paid the overhead somewhere, which is what a comparison must know.
 */
function record(facts: EngineConfigFacts, collector: keyof Collectors, value: boolean): void {
  facts.collectors[collector] = facts.collectors[collector] === true || value;
}

/**
 * Dynamo's older TensorRT-LLM worker flag `--publish-events-and-metrics` turned the engine's
 * iteration statistics on with it ("Enable iter perf stats by default if we are publishing events
 * and metrics": `engine_args["enable_iter_perf_stats"] = True` whatever the engine config said,
 * ai-dynamo/dynamo examples/tensorrt_llm/common/base_engine.py), so on it implies
 * `enable_iter_perf_stats` on; the newer `--publish-kv-events` does not.
 */
const IMPLIES_ITER_PERF_STATS = new Set(["publish_events_and_metrics", "publish-events-and-metrics"]);

/** Records the collector a key or flag names, and what the older Dynamo flag implies. */
function recordKey(facts: EngineConfigFacts, key: string, value: boolean): void {
  const collector = COLLECTOR_OF.get(key);
  if (!collector) return;
  record(facts, collector, value);
  if (value && IMPLIES_ITER_PERF_STATS.has(key)) record(facts, "enableIterPerfStats", true);
}

/** Reads collector flags from YAML text, line by line. */
export function collectorsFromYaml(text: string): EngineConfigFacts {
  const facts: EngineConfigFacts = { collectors: {}, unreadable: [] };
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  lines.forEach((line, i) => {
    if (/^\s*#/.test(line)) return;
    // `key: value` (any depth, optionally a list item) …
    const kv = /^\s*(?:-\s+)?["']?([A-Za-z_][\w-]*)["']?\s*:\s*(.*)$/.exec(line);
    if (kv) {
      const collector = COLLECTOR_OF.get(kv[1]);
      if (!collector) return;
      const value = readBool(kv[2]);
      if (value === null) facts.unreadable.push({ line: i + 1, key: kv[1], value: kv[2].trim() });
      else recordKey(facts, kv[1], value);
      return;
    }
    // … or a CLI flag in an argument list: `- --publish-kv-events` (presence means on).
    for (const m of line.matchAll(/(?:^|[\s'"[,])--([a-z][\w-]*)(?:[=\s]+(true|false))?/gi)) {
      recordKey(facts, m[1], m[2] === undefined ? true : m[2].toLowerCase() === "true");
    }
  });
  return facts;
}

/** Reads collector flags from a parsed JSON config, at any depth (arrays of CLI args included). */
export function collectorsFromJson(doc: unknown): EngineConfigFacts {
  const facts: EngineConfigFacts = { collectors: {}, unreadable: [] };
  const visit = (v: unknown, depth: number): void => {
    if (depth > 32 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const el of v) {
        if (typeof el === "string" && el.startsWith("--")) {
          const [flag, raw] = el.slice(2).split("=", 2);
          recordKey(facts, flag, raw === undefined ? true : (readBool(raw) ?? true));
        } else visit(el, depth + 1);
      }
      return;
    }
    for (const [k, child] of Object.entries(v)) {
      const collector = COLLECTOR_OF.get(k);
      if (!collector) {
        visit(child, depth + 1);
        continue;
      }
      const value = typeof child === "boolean" ? child : typeof child === "string" ? readBool(child) : null;
      if (value === null) facts.unreadable.push({ key: k, value: JSON.stringify(child) ?? "" });
      else recordKey(facts, k, value);
    }
  };
  visit(doc, 0);
  return facts;
}
