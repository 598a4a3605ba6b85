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
  /**
   * Collectors on only because a flag implies them (the config does not set them itself, or sets
   * them in a way the flag overrode), each with the flag's spelling as the config writes it.
   */
  impliedBy: Partial<Record<keyof Collectors, string>>;
  /** Lines that name a collector flag but whose value is not a boolean we can read */
  unreadable: Array<{ line?: number; key: string; value: string }>;
}

/**
 * Dynamo's TensorRT-LLM worker reads its flags from the environment too: `--publish-events-and-metrics`
 * from `DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS` (components/src/dynamo/trtllm/args.py,
 * `add_negatable_bool_argument(flag_name="--publish-events-and-metrics",
 * env_var="DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS")`: the variable is the flag's default, so a flag on
 * the command line wins), and, since PR #12162, `--publish-kv-events` from
 * `DYN_TRTLLM_PUBLISH_KV_EVENTS`; the old variable then stays an alias that sets both new ones
 * where they are unset (`os.environ.setdefault`). A deployment sets them in a Kubernetes or Dynamo
 * graph `env:` list (`- name: …` / `value: "true"`), a compose map or list, or a `.env` file.
 */
export const ENV_FLAGS = ["DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS", "DYN_TRTLLM_PUBLISH_KV_EVENTS"] as const;

/** Spellings per collector: snake_case keys, kebab-case CLI flags, Dynamo's older name and its environment variables. */
const KEYS: Record<keyof Collectors, string[]> = {
  returnPerfMetrics: ["return_perf_metrics", "return-perf-metrics"],
  enableIterPerfStats: ["enable_iter_perf_stats", "enable-iter-perf-stats"],
  publishKvEvents: [
    "publish_kv_events",
    "publish-kv-events",
    "publish_events_and_metrics",
    "publish-events-and-metrics",
    ...ENV_FLAGS,
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
 * Dynamo's TensorRT-LLM worker flag `--publish-events-and-metrics` (`publish_events_and_metrics`,
 * env `DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS`) turned TensorRT-LLM's collectors on with KV-event
 * publishing, in every Dynamo version that accepts it:
 *
 * - `enable_iter_perf_stats`: the first workers forced it on whatever the engine config said ("Enable
 *   iter perf stats by default if we are publishing events and metrics",
 *   examples/tensorrt_llm/common/base_engine.py); later ones default it to the flag
 *   (components/src/dynamo/trtllm/main.py, `"enable_iter_perf_stats": config.publish_events_and_metrics`).
 * - `return_perf_metrics`: defaulted to the flag (the same `arg_map`,
 *   `"return_perf_metrics": config.publish_events_and_metrics`) before the engine config's own
 *   keys are applied, so a config that sets it says what the engine ran with.
 *
 * ai-dynamo/dynamo PR #12162 ("decouple KV events from performance metrics", July 2026) renamed the
 * flag `--publish-kv-events`, which since implies neither; the old spelling stays an alias that
 * keeps the combined behaviour for one release (components/src/dynamo/trtllm/args.py at
 * 0a6a115c6cd15ae95647e90c55be2ea06b36e66f). Between the rename and that PR
 * `--publish-kv-events` implied them too, but nothing in a config tells those versions apart, so
 * the new spelling implies nothing here (the collectors stay unknown unless the config says).
 */
const IMPLIES: Record<string, Array<keyof Collectors>> = Object.fromEntries(
  ["publish_events_and_metrics", "publish-events-and-metrics", "DYN_TRTLLM_PUBLISH_EVENTS_AND_METRICS"].map(
    (k) => [k, ["enableIterPerfStats", "returnPerfMetrics"]],
  ),
);

/** What an implying flag does to a collector the config also sets: "forced" overrides it, "default" yields. */
const IMPLIED_AS: Partial<Record<keyof Collectors, "forced" | "default">> = {
  enableIterPerfStats: "forced",
  returnPerfMetrics: "default",
};

/** Records the collector a key or flag names; what it implies waits for `settle` (the config's own keys win). */
function recordKey(
  facts: EngineConfigFacts,
  key: string,
  value: boolean,
  implied: Map<string, string>,
): void {
  const collector = COLLECTOR_OF.get(key);
  if (!collector) return;
  record(facts, collector, value);
  if (value) for (const c of IMPLIES[key] ?? []) if (!implied.has(c)) implied.set(c, key);
}

/**
 * Whether a flag's implication turns a collector on given what the configs state of it: not when
 * they turn it on themselves (recorded), nor when they turn it off and the flag only set a default.
 */
export function impliedWins(collector: keyof Collectors, stated: boolean | null | undefined): boolean {
  return stated === undefined || stated === null || (stated === false && IMPLIED_AS[collector] === "forced");
}

/** Applies the implications: a collector the config sets keeps its value unless the flag forced it on. */
function settle(facts: EngineConfigFacts, implied: Map<string, string>): EngineConfigFacts {
  for (const [c, flag] of implied as Map<keyof Collectors, string>) {
    if (!impliedWins(c, facts.collectors[c])) continue;
    facts.collectors[c] = true;
    facts.impliedBy[c] = flag;
  }
  return facts;
}

/**
 * How an implied collector is known, as the doctor and the compare page say it: the flag, the
 * file and the Dynamo source that ties them.
 */
export function impliedEvidence(collector: keyof Collectors, flag: string, file: string): string {
  const source =
    collector === "enableIterPerfStats"
      ? "Dynamo's TensorRT-LLM worker turned enable_iter_perf_stats on with it (examples/tensorrt_llm/common/base_engine.py forced it whatever the engine config said; components/src/dynamo/trtllm/main.py defaulted it to the flag)"
      : "Dynamo's TensorRT-LLM worker defaulted return_perf_metrics to it (components/src/dynamo/trtllm/main.py), and the config does not set it";
  const spelled = flag.startsWith("DYN_")
    ? `${flag} set true in the environment`
    : flag.includes("-")
      ? `--${flag}`
      : `${flag}: true`;
  return `inferred from ${spelled} in ${file}: ${source}; ai-dynamo/dynamo PR #12162 split KV events from the collectors as --publish-kv-events`;
}

const ENV_NAME = new Set<string>(ENV_FLAGS);

/**
 * A line that sets one of Dynamo's collector variables: `- name: DYN_…` (its value follows),
 * `- {name: DYN_…, value: "1"}`, or `DYN_…=1` (a `.env` file, `export`, a compose list item).
 * The map form `DYN_…: "1"` is an ordinary key.
 */
function envLine(
  line: string,
): { kind: "name"; name: string; indent: number } | { kind: "pair"; name: string; value: string } | null {
  const named = /^(\s*)-\s+["']?name["']?\s*:\s*["']?([A-Z_][A-Z0-9_]*)["']?\s*$/.exec(line);
  if (named && ENV_NAME.has(named[2])) return { kind: "name", name: named[2], indent: named[1].length + 2 };
  const inline =
    /\{\s*["']?name["']?\s*:\s*["']?([A-Z_][A-Z0-9_]*)["']?\s*,\s*["']?value["']?\s*:\s*([^,}]*)\}/.exec(
      line,
    );
  if (inline && ENV_NAME.has(inline[1])) return { kind: "pair", name: inline[1], value: inline[2] };
  const assigned =
    /^\s*(?:-\s+|export\s+)?["']?([A-Z_][A-Z0-9_]*)=([^"'\s]*|"[^"]*"|'[^']*')["']?\s*(?:#.*)?$/.exec(line);
  if (assigned && ENV_NAME.has(assigned[1])) return { kind: "pair", name: assigned[1], value: assigned[2] };
  return null;
}

/**
 * Reads collector flags from YAML text, line by line, and Dynamo's collector variables wherever a
 * deployment sets them (`envLine`), a `.env` file's lines included.
 */
export function collectorsFromYaml(text: string): EngineConfigFacts {
  const facts: EngineConfigFacts = { collectors: {}, impliedBy: {}, unreadable: [] };
  const implied = new Map<string, string>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  // A Kubernetes `env:` item names the variable on one line and gives its value on a later one.
  let pendingEnv: { name: string; indent: number } | null = null;
  const envValue = (name: string, raw: string, line: number) => {
    const value = readBool(raw);
    if (value === null) facts.unreadable.push({ line, key: name, value: raw.trim() });
    else recordKey(facts, name, value, implied);
  };
  lines.forEach((line, i) => {
    if (/^\s*#/.test(line)) return;
    const env = envLine(line);
    if (env) {
      if (env.kind === "name") pendingEnv = { name: env.name, indent: env.indent };
      else if (env.kind === "pair") envValue(env.name, env.value, i + 1);
      return;
    }
    if (pendingEnv) {
      const field = /^(\s*)(-\s+)?([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
      const indent = field ? field[1].length : 0;
      if (field && !field[2] && indent >= pendingEnv.indent && field[3] === "value") {
        envValue(pendingEnv.name, field[4], i + 1);
        pendingEnv = null;
        return;
      }
      if (field && !field[2] && indent >= pendingEnv.indent && field[3] === "valueFrom") {
        facts.unreadable.push({
          line: i + 1,
          key: pendingEnv.name,
          value: "valueFrom (a secret or config map)",
        });
        pendingEnv = null;
        return;
      }
      if (!field || field[2] || indent < pendingEnv.indent) pendingEnv = null;
    }
    // `key: value` (any depth, optionally a list item) …
    const kv = /^\s*(?:-\s+)?["']?([A-Za-z_][\w-]*)["']?\s*:\s*(.*)$/.exec(line);
    if (kv) {
      const collector = COLLECTOR_OF.get(kv[1]);
      if (!collector) return;
      const value = readBool(kv[2]);
      if (value === null) facts.unreadable.push({ line: i + 1, key: kv[1], value: kv[2].trim() });
      else recordKey(facts, kv[1], value, implied);
      return;
    }
    // … or a CLI flag in an argument list: `- --publish-kv-events` (presence means on).
    for (const m of line.matchAll(/(?:^|[\s'"[,])--([a-z][\w-]*)(?:[=\s]+(true|false))?/gi)) {
      recordKey(facts, m[1], m[2] === undefined ? true : m[2].toLowerCase() === "true", implied);
    }
  });
  return settle(facts, implied);
}

/** Reads collector flags from a parsed JSON config, at any depth (arrays of CLI args included). */
export function collectorsFromJson(doc: unknown): EngineConfigFacts {
  const facts: EngineConfigFacts = { collectors: {}, impliedBy: {}, unreadable: [] };
  const implied = new Map<string, string>();
  const visit = (v: unknown, depth: number): void => {
    if (depth > 32 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const el of v) {
        if (typeof el === "string" && el.startsWith("--")) {
          const [flag, raw] = el.slice(2).split("=", 2);
          recordKey(facts, flag, raw === undefined ? true : (readBool(raw) ?? true), implied);
        } else visit(el, depth + 1);
      }
      return;
    }
    // A Kubernetes env item: `{"name": "DYN_…", "value": "true"}`.
    const item = v as Record<string, unknown>;
    if (typeof item.name === "string" && ENV_NAME.has(item.name) && "value" in item) {
      const value = typeof item.value === "string" ? readBool(item.value) : null;
      if (value === null) facts.unreadable.push({ key: item.name, value: JSON.stringify(item.value) ?? "" });
      else recordKey(facts, item.name, value, implied);
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
      else recordKey(facts, k, value, implied);
    }
  };
  visit(doc, 0);
  return settle(facts, implied);
}
