/**
 * A run's goodput under SLOs (docs/metrics.md §Goodput), from every per-request row it stored:
 * aiperf records (profiling phase), or TensorRT-LLM perf metrics, whose TPOT is
 * (E2E − TTFT) / (output tokens − 1) with the output tokens counted from the generation steps.
 */
import type { Goodput, Slo } from "@/lib/api/slo";
import { computeGoodputInSteps, type GoodputRow } from "@/lib/metrics/goodput";
import { generationStepsOf, outputTokensOf, tpotMs } from "@/lib/metrics/trtllm-latency";
import type { Db } from "@/lib/store/db";
import {
  aiperfProfilingPages,
  trtllmGoodputPages,
  type TrtllmGoodputColumns,
} from "@/lib/store/goodput-rows";
import { getRun } from "@/lib/store/runs-repo";
import { inTurns } from "./in-turns";
import { throughputInputs } from "./run-derived";
import { storedSummary } from "./stored-summary";

/**
 * Rows read a query, with a turn of the event loop between two queries. An object so a test can
 * page a run a tenth the size as many times (test/api/trtllm-read-yields.test.ts); the server never
 * changes it.
 */
export const GOODPUT_PAGE = { rows: 4_000 };

interface Store {
  db: Db;
}

/**
 * A stored TensorRT-LLM request as goodput sees it: its output tokens counted from its generation
 * steps (plus accepted draft tokens), and its TPOT from them.
 */
export function trtllmGoodputRow(r: TrtllmGoodputColumns): GoodputRow {
  const tokens = outputTokensOf(
    generationStepsOf(
      r.step_count,
      { firstIter: r.first_iter, lastIter: r.last_iter },
      r.mode === "disaggregated",
    ),
    r.spec_accepted_tokens === null ? null : { acceptedDraftTokens: r.spec_accepted_tokens, draftTokens: 0 },
  );
  return {
    ok: true,
    ttftMs: r.ttft_ms,
    tpotMs: tpotMs(r.ttft_ms, r.e2e_ms, tokens),
    e2eMs: r.e2e_ms,
    outputTokens: tokens,
  };
}

/** Goodput of one run; null when the run does not exist. */
export async function runGoodput(store: Store, runId: string, slos: readonly Slo[]): Promise<Goodput | null> {
  const run = await getRun(store.db, runId);
  if (!run) return null;
  const blocks = run.summary ? storedSummary(run).blocks : null;
  const rows: GoodputRow[] = [];
  let okRows = 0;
  // A page a query, a turn of the event loop after each (lib/store/goodput-rows.ts), as for
  // TensorRT-LLM below: a 200,000-request run's rows read and mapped in one piece held the server.
  for await (const page of aiperfProfilingPages(store.db, runId, GOODPUT_PAGE.rows)) {
    for (const r of page) {
      const ok = r.ok === 1 && r.cancelled === 0;
      if (ok) okRows++;
      rows.push({ ok, ttftMs: r.ttft_ms, tpotMs: r.itl_ms, e2eMs: r.e2e_ms, outputTokens: r.output_tokens });
    }
  }
  if (rows.length > 0) {
    const result = await inTurns(computeGoodputInSteps(rows, slos, blocks?.requests?.durationS ?? null));
    const base = {
      slos: [...slos],
      source: "aiperf records",
      durationS: blocks?.requests?.durationS ?? null,
    };
    const sampled = blocks ? throughputInputs(blocks) : null;
    // Records that are a sample of the run: the share is the sample's; per-second figures would
    // count only the sampled requests over the whole run, so they scale the summary's rate.
    if (sampled?.source === "aiperf summary" && sampled.note && result.share !== null) {
      const req = sampled.requestsPerS;
      return {
        ...base,
        ...result,
        note: `the records are a sample of the run (${sampled.note.replace(/;.*$/, "")}): the share is the recorded requests', and goodput is that share of aiperf's request throughput`,
        goodputReqPerS:
          req !== null && okRows > 0
            ? { value: (result.meeting / okRows) * req, reason: null }
            : { value: null, reason: "request throughput unknown" },
        goodputTokPerS: { value: null, reason: "records are a sample: good tokens per second not known" },
      };
    }
    return { ...base, ...result, note: null };
  }
  let first = Infinity;
  let last = -Infinity;
  // A 200,000-request run read and mapped in one piece held the server for over a second.
  for await (const page of trtllmGoodputPages(store.db, runId, GOODPUT_PAGE.rows)) {
    for (const r of page) {
      if (r.arrival_ms !== null) {
        first = Math.min(first, r.arrival_ms);
        if (r.e2e_ms !== null) last = Math.max(last, r.arrival_ms + r.e2e_ms);
      }
      rows.push(trtllmGoodputRow(r));
    }
  }
  // The window perf metrics span: first arrival to last completion.
  const durationS = last > first ? (last - first) / 1000 : null;
  return {
    slos: [...slos],
    source: rows.length > 0 ? "TensorRT-LLM perf metrics" : null,
    note:
      rows.length > 0
        ? "duration: first request arrival to last completion in the perf metrics"
        : "no per-request rows: upload aiperf's profile_export.jsonl or TensorRT-LLM perf metrics",
    durationS,
    ...(await inTurns(computeGoodputInSteps(rows, slos, durationS))),
  };
}
