/**
 * Where a run's figure or setting was read from, in words (docs/metrics.md §Comparable runs): the
 * one place a producer's field path becomes text a reader sees. Ingest stores these texts with the
 * run (`<key>Source` info entries); the page, the report and the comparability doctor read them
 * through `sourceWords`, so a run stored before a wording changed reads in today's words too.
 * The producer's own field names stay available as `fields`, for a tooltip or a definition. A leaf:
 * the browser bundles it.
 */

/** aiperf's held concurrency, computed from its per-request records (lib/metrics/aiperf-held-concurrency.ts). */
export const RECORDS_CONCURRENCY_WORDS =
  "aiperf records: time-weighted requests in flight, from the first request's start to the last request's end";
/** aiperf's client-side queue wait, computed from its per-request records (lib/metrics/aiperf-queue-wait.ts). */
export const RECORDS_QUEUE_WAIT_WORDS =
  "aiperf records: each request's wait from the credit being issued to the request being sent";
/** aiperf's own queue-wait statistic, read from its summary. */
export const SUMMARY_QUEUE_WAIT_WORDS =
  "aiperf summary: each request's wait from the credit being issued to the request being sent";
/** aiperf's older queue-wait statistic (the worker's part of the wait only). */
export const SUMMARY_CREDIT_DROP_WORDS =
  "aiperf summary: each request's wait from a worker receiving its credit to the request being sent";

export interface SourceWords {
  /** What a reader sees */
  text: string;
  /** The producer's field names or path it was read from, for a tooltip or a definition; null when the text names none */
  fields: string | null;
}

/**
 * Texts stored by earlier versions, and today's texts that name a computation by its fields: the
 * words shown instead, and the fields kept for the definition.
 */
const STORED: Record<string, SourceWords> = {
  "aiperf records: time-weighted requests in flight, request_start_ns → request_end_ns (effective_concurrency)":
    {
      text: RECORDS_CONCURRENCY_WORDS,
      fields: "request_start_ns → request_end_ns (aiperf's effective_concurrency)",
    },
  [RECORDS_CONCURRENCY_WORDS]: {
    text: RECORDS_CONCURRENCY_WORDS,
    fields: "request_start_ns → request_end_ns (aiperf's effective_concurrency)",
  },
  "aiperf effective_concurrency (summary)": {
    text: "aiperf summary: effective concurrency",
    fields: "effective_concurrency",
  },
  "aiperf records: request_start_ns − credit_issued_ns (credit_to_start_latency)": {
    text: RECORDS_QUEUE_WAIT_WORDS,
    fields: "request_start_ns − credit_issued_ns (aiperf's credit_to_start_latency)",
  },
  [RECORDS_QUEUE_WAIT_WORDS]: {
    text: RECORDS_QUEUE_WAIT_WORDS,
    fields: "request_start_ns − credit_issued_ns (aiperf's credit_to_start_latency)",
  },
  "aiperf credit_to_start_latency (request_start_ns − credit_issued_ns)": {
    text: SUMMARY_QUEUE_WAIT_WORDS,
    fields: "credit_to_start_latency (request_start_ns − credit_issued_ns)",
  },
  [SUMMARY_QUEUE_WAIT_WORDS]: {
    text: SUMMARY_QUEUE_WAIT_WORDS,
    fields: "credit_to_start_latency (request_start_ns − credit_issued_ns)",
  },
  "aiperf credit_drop_latency (credit received by a worker → request sent)": {
    text: SUMMARY_CREDIT_DROP_WORDS,
    fields: "credit_drop_latency",
  },
  [SUMMARY_CREDIT_DROP_WORDS]: { text: SUMMARY_CREDIT_DROP_WORDS, fields: "credit_drop_latency" },
};

/** The producers whose name opens a stored path ("aiperf input_config.input.random_seed"). */
const PRODUCER = /^(aiperf|vLLM|SGLang|TensorRT-LLM|Dynamo|GuideLLM|genai-perf|InferenceX)\b\s*/;

/** The sections of a producer's configuration a path starts in, in words. */
const SECTIONS: Array<[RegExp, string]> = [
  [/^input_config\b/, "input configuration"],
  [/^metadata\b/, "metadata"],
  [/^run_info\b/, "run info"],
  [/^server_info\b/, "server arguments"],
  [/^engine_args\b/, "engine arguments"],
];

/** A field path: words joined by dots, underscores or brackets ("input_config.datasets[0].sampling"). */
const PATH = /\b[a-z][a-z0-9]*(?:[._][a-z0-9]+|\[\d+\])+/i;
const PATHS = new RegExp(PATH.source, "gi");

/**
 * A stored source in words: a known text as today's words; "<producer> <path> (note)" as "the
 * <producer>'s <section>" with the path kept as `fields`; any other text with its field paths
 * moved to `fields`, or as it is when it names none.
 */
export function sourceWords(stored: string): SourceWords {
  const known = STORED[stored];
  if (known) return known;
  const producer = PRODUCER.exec(stored)?.[1] ?? null;
  const rest = producer ? stored.slice(PRODUCER.exec(stored)![0].length) : stored;
  const paths = rest.match(PATHS);
  if (!paths) return { text: stored, fields: null };
  const first = paths[0];
  const section = SECTIONS.find(([rx]) => rx.test(first))?.[1] ?? null;
  const note = /\(([^()]*)\)\s*$/.exec(rest)?.[1] ?? null;
  const words = [
    producer ? `${producer}'s ${section ?? "own field"}` : (section ?? "the producer's own field"),
    note && !PATH.test(note) ? `(${note})` : null,
  ]
    .filter(Boolean)
    .join(" ");
  return { text: words, fields: paths.join(", ") };
}

/** A stored source as one line for a tooltip: the words, then the producer's fields. */
export function sourceTitle(stored: string): string {
  const w = sourceWords(stored);
  return w.fields ? `${w.text} (${w.fields})` : w.text;
}
