/**
 * The run header's "info" entries (what a file said about its run beyond the run facts) as
 * people read them: "vLLM pooled ITL p99: 12.5 ms", not "vllmPooledItlP99Ms 12.5". The run
 * header (components/run/run-header.tsx) and the offline report's summary both list them so.
 */
import { sourceTitle, sourceWords } from "@/lib/api/source-words";
import { formatMs, formatNumber, formatPoints, formatRate } from "@/lib/format-number";
import { idFieldsInWords } from "./trtllm-request-name";

/** Entries that tell a view what to say (e.g. why a timeline is missing), not facts about the run. */
const VIEW_HINTS = new Set(["requestTimeline", "routerPrediction", "routerLog"]);

/** Words written as their tools and the field write them. */
const WORDS: Record<string, string> = {
  vllm: "vLLM",
  sglang: "SGLang",
  aiperf: "aiperf",
  inferencex: "InferenceX",
  ttft: "TTFT",
  itl: "ITL",
  tpot: "TPOT",
  e2e: "E2E",
  gpu: "GPU",
  kv: "KV",
  isl: "ISL",
  osl: "OSL",
  len: "length",
};

/** Entries whose key, read word by word, would not say what they count. */
const NAMED: Record<string, string> = {
  queueWaitCount: "requests with a queue wait",
  queueWaitJudged: "requests judged for queue wait",
  queueWaited: "requests that waited in the load generator",
  queueWaitMissing: "records without queue-wait stamps",
  effectiveConcurrencyCount: "requests behind the effective concurrency",
  // How the disaggregated server's records met the workers' (stored "N by disagg_request_id, M
  // by ctx_request_id"): the value is said in words, the fields are its tooltip (`infoTitle`).
  "TRT-LLM joins": "TensorRT-LLM requests joined",
};

/** Entries whose stored text names record fields: said in words, the stored text kept as the tooltip. */
const FIELDS_IN_VALUE: ReadonlySet<string> = new Set(["TRT-LLM joins"]);

export type InfoValue = string | number | boolean | null;

/**
 * Older entries kept in the run summary for the runs and API clients that read them, but not
 * shown beside the entry that replaced them: `routerKvHitRate` (the mean of the router
 * histogram's averages) says what `routerPredictedHitRate` (Σ sum / Σ count of the router's
 * one pool, docs/metrics.md §Predicted vs delivered hit rate) says better.
 */
const SUPERSEDED_BY: Record<string, string> = { routerKvHitRate: "routerPredictedHitRate" };

/** Whether an entry is shown at all: set, and a fact about the run rather than a view hint. */
export function shownInfo(key: string, v: InfoValue): boolean {
  return v !== null && v !== "" && !VIEW_HINTS.has(key);
}

/**
 * The entry a `<key>Source` entry says the source of: `<key>` itself, else the first entry named
 * `<key>…` (`queueWaitSource` → `queueWaitP50Ms`), among `keys`; null for none.
 */
function sourceOwner(key: string, keys: readonly string[]): string | null {
  const m = /^(.+)Source$/.exec(key);
  if (!m) return null;
  const base = m[1];
  return keys.includes(base)
    ? base
    : (keys.find((k) => k !== key && k.startsWith(base) && !k.endsWith("Source")) ?? null);
}

/**
 * The entries the run header lists: shown ones, less those the run facts state (`asFacts`),
 * those an entry present in the same run replaced, and the `<key>Source` entries of listed ones
 * (the producer's field path, which `infoSources` gives as the entry's tooltip, never its own row).
 */
export function headerInfo(
  info: Record<string, InfoValue>,
  asFacts: (key: string) => boolean,
): [string, InfoValue][] {
  const listed = Object.entries(info).filter(([k, v]) => {
    if (!shownInfo(k, v) || asFacts(k)) return false;
    const successor = SUPERSEDED_BY[k];
    return successor === undefined || !shownInfo(successor, info[successor] ?? null);
  });
  const keys = listed.map(([k]) => k);
  return listed.filter(([k, v]) => typeof v !== "string" || sourceOwner(k, keys) === null);
}

/**
 * Where each listed entry was read from, by the entry's key, in words with the producer's fields
 * after them (lib/api/source-words.ts): the `<key>Source` entries `headerInfo` leaves out.
 */
export function infoSources(
  info: Record<string, InfoValue>,
  listed: readonly [string, InfoValue][],
): Map<string, string> {
  const keys = listed.map(([k]) => k);
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(info)) {
    if (typeof v !== "string" || v === "") continue;
    const owner = sourceOwner(k, keys);
    if (owner !== null && !out.has(owner)) out.set(owner, sourceTitle(v));
  }
  return out;
}

/**
 * "vllmPooledItlP99Ms" → "vLLM pooled ITL p99", "peakOutputTokensPerS" → "peak output tokens/s".
 * A key already in words (a tool's own label, "SGLang bench_serving console: Max ITL (ms)") is
 * shown as it is.
 */
export function infoLabel(key: string): string {
  const named = NAMED[key];
  if (named) return named;
  if (/\s/.test(key))
    return key
      .split(" ")
      .map((w) => WORDS[w] ?? w)
      .join(" ");
  const words = key
    .replace(/Ms$/, "")
    .replace(/Points$/, "")
    .replace(/PerS$/, "/s")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(" ");
  return words
    .map((w) => WORDS[w] ?? w)
    .join(" ")
    .replace(/ \/s$/, "/s");
}

/**
 * Milliseconds as times, rates as percentages, a difference of rates as signed percentage points,
 * other numbers for people (at most two decimals from 1 up, "7.9" not "7.8973"; three significant
 * digits below, so 0.0523 keeps its digits); text as it is.
 */
export function infoValue(key: string, v: InfoValue): string {
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "string" && FIELDS_IN_VALUE.has(key)) return idFieldsInWords(v);
  // A source stored as the producer's field path ("aiperf input_config.input.random_seed"), in words.
  if (typeof v === "string" && /Source$/.test(key)) return sourceWords(v).text;
  // A seed is an identifier, not a quantity: every digit, no grouping.
  if (typeof v !== "number" || /Seed$/.test(key)) return String(v);
  if (/Ms$/.test(key)) return formatMs(v);
  if (/HitRate$/.test(key)) return formatRate(v);
  if (/Points$/.test(key)) return formatPoints(v);
  return Math.abs(v) >= 1 ? formatNumber(v, 2) : formatNumber(Number(v.toPrecision(3)), 6);
}

/**
 * The tooltip of an entry whose value `infoValue` writes in words from record fields: the
 * producer's fields as stored, for a reader who checks them in their own files ("joined on
 * TensorRT-LLM's record fields: 600 by disagg_request_id, 0 by ctx_request_id"); null for others.
 */
export function infoTitle(key: string, v: InfoValue): string | null {
  if (typeof v === "string" && FIELDS_IN_VALUE.has(key))
    return `As recorded, by TensorRT-LLM's record fields: ${v}`;
  return null;
}
