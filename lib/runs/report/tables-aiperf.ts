/**
 * The Latency view's tables from aiperf-shaped runs (aiperf and imported tools): the slowest
 * requests by each metric, with their untouched request ids so a tail request can be found in
 * the server's logs, and the check of our statistics against the producer's own summary.
 */

import { formatCount } from "@/lib/format-number";
import { cell, type Payloads } from "./figure-kit";
import type { Section } from "./html";
import { AIPERF_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { latencyName, type LatencyField } from "@/lib/api/metric-catalog";

/** "time to first token": a latency's catalog name inside a sentence. */
const inSentence = (field: LatencyField) => latencyName(field).toLowerCase();

const SORT_TITLE = { ttft: inSentence("ttftMs"), e2e: inSentence("e2eMs"), itl: inSentence("itlMs") };

export function slowestTables(p: Payloads): Section["blocks"] {
  const s = p.get(AIPERF_CHARTS.slowest);
  if (!s || s.total === 0) return [];
  return (["ttft", "e2e", "itl"] as const)
    .filter((k) => s.lists[k].length > 0)
    .map((k) => ({
      kind: "table" as const,
      title: `Slowest ${formatCount(s.lists[k].length)} of ${formatCount(s.total)} requests by ${SORT_TITLE[k]}`,
      table: {
        columns: [
          "request id",
          "start (s)",
          "TTFT (ms)",
          "end-to-end (ms)",
          "ITL (ms)",
          "input (tokens)",
          "output (tokens)",
        ],
        rows: s.lists[k].map((r) => [
          r.requestId ?? "not recorded",
          cell(r.startS),
          cell(r.ttftMs),
          cell(r.e2eMs),
          cell(r.itlMs),
          cell(r.inputTokens, 0),
          cell(r.outputTokens, 0),
        ]),
      },
    }));
}

const TRTLLM_SORT_TITLE = {
  ttftMs: `server ${inSentence("ttftMs")}`,
  e2eMs: `server ${inSentence("e2eMs")}`,
  tpotMs: inSentence("tpotMs"),
};

/**
 * The same tables for a TensorRT-LLM run's perf metrics: per metric, the requests with the largest
 * server TTFT, E2E or TPOT, as the Latency view lists them (docs/metrics.md), with the engine's
 * request id and the disagg server's where the records carry one.
 */
export function trtllmSlowestTables(p: Payloads): Section["blocks"] {
  const s = p.get(TRTLLM_CHARTS.slowest);
  if (!s || s.total === 0) return [];
  return (["ttftMs", "e2eMs", "tpotMs"] as const)
    .filter((k) => s.lists[k].length > 0)
    .map((k) => ({
      kind: "table" as const,
      title: `Slowest ${formatCount(s.lists[k].length)} of ${formatCount(s.counts[k])} requests by ${TRTLLM_SORT_TITLE[k]}`,
      table: {
        columns: [
          "request id",
          "disagg request id",
          "start (s)",
          "TTFT (ms)",
          "end-to-end (ms)",
          "TPOT (ms)",
          "output (tokens)",
        ],
        rows: s.lists[k].map((r) => [
          r.requestId ?? "not recorded",
          r.disaggRequestId ?? "not recorded",
          cell(r.startS),
          cell(r.ttftMs),
          cell(r.e2eMs),
          cell(r.tpotMs),
          cell(r.outputTokens, 0),
        ]),
      },
    }));
}

export function agreementTables(p: Payloads): Section["blocks"] {
  const a = p.get(AIPERF_CHARTS.agreement);
  if (!a || a.rows.length === 0) return [];
  const summary =
    a.disagreements === 0
      ? `Every figure agrees with the producer's summary (${a.sources.join(", ")}) within rounding.`
      : `${formatCount(a.disagreements)} of ${formatCount(a.rows.length)} figures disagree with the producer's summary beyond rounding: the rows marked "no".`;
  return [
    { kind: "note", text: summary },
    {
      kind: "table",
      title: "Agreement with the producer's summary",
      table: {
        columns: ["metric", "statistic", "ours", "producer's", "agrees", "summary file"],
        rows: a.rows.map((r) => [
          r.metric,
          r.stat,
          cell(r.ours),
          cell(r.aiperf),
          r.agrees ? "yes" : "no",
          r.source,
        ]),
      },
    },
  ];
}
