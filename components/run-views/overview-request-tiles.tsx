import type { RequestsBlock, RunSummary } from "@/lib/api/schemas";
import { formatCount, formatFigure, formatMsAlike, NOT_RECORDED, plural } from "@/lib/format-number";
import { METRICS, pairLabel } from "@/lib/api/metric-catalog";

/**
 * A p50 / p99 pair in one unit and one number of decimals ("6.48 s / 18.63 s", "3,720.0 ms /
 * 3,940.6 ms"; never "6,478.6 ms / 18.63 s" nor "3,720 ms / 3,940.6 ms").
 */
export function pair(p50: number | null, p99: number | null): string {
  return formatMsAlike([p50, p99]).join(" / ");
}
import { outputTokenFacts, requestCountFacts } from "@/lib/metrics/request-definitions";
import { requestWords, type RequestWords } from "@/lib/metrics/request-words";
import { warmupText } from "@/components/aiperf/warmup-text";
import { benchmarkTool } from "@/components/charts/definitions";

export interface Tile {
  label: string;
  value: string;
  hint?: string;
  /** The definition, for the tile's title (hover) and screen readers */
  definition?: string;
  testId?: string;
  /** "danger": the run has no successful request, so the tile has no figure (a red tile). */
  tone?: "danger";
}

/** Why a latency tile has no value: statistics are over successful requests only. */
const NO_SUCCESS = "no successful request recorded it";

/** A tile's value in a run where every request failed: a statement, never 0 or a blank. */
export const NO_SUCCESSFUL_REQUEST = "no successful request";

/** The aiperf tiles of the overview, each labelled with the definition it uses. */
export function requestTiles(run: RunSummary): Tile[] {
  const r = run.requests;
  if (!r) return [];
  const counts = requestCountFacts(r);
  const words = requestWords(run);
  const tool = benchmarkTool(run.info);
  // A tool's own summary may lack a median or p99 (InferenceX's agentic results write mean, p75,
  // p90, p95): its figures are in the run header under its names.
  const whyMissing =
    r.source === "tool-summary" && r.count - r.errorCount > 0
      ? `${tool ?? "the tool"}'s summary has no p50 and p99 of it (its figures are in the header)`
      : NO_SUCCESS;
  // Every request failed: each figure over successful requests says so, in a red tile.
  const allFailed = counts.successful === 0 && counts.all > 0;
  const failedHint = `every request failed (${plural(counts.errors, "error")}): see Errors under Throughput`;
  const latency = (label: string, s: RequestsBlock["ttftMs"], extra: Partial<Tile> = {}): Tile =>
    allFailed && !s
      ? { label, value: NO_SUCCESSFUL_REQUEST, hint: failedHint, tone: "danger", ...extra }
      : { label, value: s ? pair(s.p50, s.p99) : NOT_RECORDED, hint: s ? undefined : whyMissing, ...extra };
  const sample = r.recordsSample
    ? ` · aiperf summary (records uploaded: ${formatCount(r.recordsSample.records)} of ${formatCount(r.recordsSample.described)})`
    : "";
  return [
    {
      label: "Requests (errors included)",
      value: formatCount(counts.all),
      hint:
        counts.successful === 0 && (counts.errors > 0 || r.source === "tool-summary")
          ? `no successful request · ${counts.errors > 0 ? plural(counts.errors, "error") : `${words.producer} does not count its failed requests here`} · ${warmupText(r)}`
          : `${formatCount(counts.successful)} ${words.successful} · ${plural(counts.errors, "error")} · ${warmupText(r)}${sample}`,
      definition: `${words.countDefinition}${tool && r.warmupCount === null ? ` (How many warm-up requests ran is not in ${tool}'s files.)` : ""}`,
      testId: "tile-requests",
      ...(allFailed ? { tone: "danger" as const } : {}),
    },
    latency(
      pairLabel(METRICS.ttft),
      r.ttftMs,
      r.ttftMs && sample
        ? { testId: "tile-ttft", hint: "aiperf summary, every request" }
        : { testId: "tile-ttft" },
    ),
    latency(pairLabel(METRICS.e2e), r.e2eMs, { testId: "tile-e2e" }),
    // One quantity, (E2E − TTFT) ÷ (output tokens − 1) per request, in the producer's word.
    latency(`${words.itl.short} p50 / p99`, r.itlMs, {
      testId: "tile-itl",
      definition: `${words.itl.label}: per successful request (E2E − TTFT) ÷ (output tokens − 1), as ${words.producer} computes it${words.itl.short === "ITL" ? "; vLLM bench serve and SGLang bench_serving call the same figure TPOT" : "; genai-perf and GuideLLM call the same figure inter-token latency (ITL)"}.`,
    }),
    counts.successful === 0
      ? // A rate over no successful request is no measurement (vLLM writes 0.0 for it).
        {
          label: METRICS.outputTokenThroughput.label,
          value: allFailed ? NO_SUCCESSFUL_REQUEST : NOT_RECORDED,
          hint: allFailed ? failedHint : "no successful request: no throughput",
          ...(allFailed ? { tone: "danger" as const } : {}),
          testId: "tile-output-throughput",
        }
      : {
          label: METRICS.outputTokenThroughput.label,
          value:
            r.outputTokenThroughputPerS == null
              ? NOT_RECORDED
              : // At the unit's decimals, as the per-GPU tiles, the sweep table and Compare write it.
                `${formatFigure(r.outputTokenThroughputPerS, "tok/s")} tok/s`,
          hint:
            r.requestThroughputPerS != null
              ? `${formatFigure(r.requestThroughputPerS, "requests/s")} requests/s${r.throughputSource ? " · aiperf's benchmark window" : ""}`
              : undefined,
          testId: "tile-output-throughput",
        },
    ...outputTokenTiles(run, words),
  ];
}

/** Client and server output-token totals: one tile when they agree, both when they differ. */
function outputTokenTiles(run: RunSummary, words: RequestWords): Tile[] {
  const t = outputTokenFacts(run);
  if (t.client === null && t.server === null) return [];
  const client =
    words.producer === "aiperf"
      ? "Σ output tokens of successful profiling requests, as aiperf counted them (total_osl)"
      : `Σ output tokens of successful requests, as ${words.producer} counted them`;
  const server =
    "the engine's generation-token counter over the server-metrics window: it also counts tokens of failed, cancelled and warm-up requests, and of any other client";
  if (t.client !== null && t.server !== null && !t.differ)
    return [
      {
        label: "Output tokens",
        value: formatCount(t.client),
        hint: "client total and server counter agree",
        definition: `Client: ${client}; server: ${server}.`,
        testId: "tile-output-tokens",
      },
    ];
  const tiles: Tile[] = [];
  if (t.client !== null)
    tiles.push({
      label: "Output tokens (client)",
      value: formatCount(t.client),
      hint: t.server !== null ? `${words.producer}'s count of successful requests` : undefined,
      definition: `${client[0].toUpperCase()}${client.slice(1)}.`,
      testId: "tile-output-tokens-client",
    });
  if (t.server !== null)
    tiles.push({
      label: "Output tokens (server counter)",
      value: formatCount(t.server),
      hint:
        t.client !== null ? serverDifference(t.server - t.client) : "the engine's generation-token counter",
      definition: `${server[0].toUpperCase()}${server.slice(1)}.`,
      testId: "tile-output-tokens-server",
    });
  return tiles;
}

function serverDifference(d: number): string {
  return d > 0
    ? `${formatCount(d)} more than the client counted: the counter also holds failed, warm-up and other clients' tokens`
    : `${formatCount(-d)} fewer than the client counted: the server window or endpoints do not cover every request`;
}
