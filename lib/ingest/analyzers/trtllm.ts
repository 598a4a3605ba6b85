/**
 * TensorRT-LLM perf-metrics analyzer: streams every perf_metrics file of a run (worker and
 * disagg-server JSONL, the older JSON array, a single object), joins them into requests in
 * `finish`, stores one row per request and the time-breakdown summary and charts.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { plural } from "@/lib/format-number";
import { readJsonArrayElements } from "@/lib/formats/json-array";
import { eachJsonLine, JsonLineParser, PARSE_FAILED, WarningLog } from "@/lib/formats/json-lines";
import { TrtllmRecordStore } from "@/lib/ingest/trtllm-compact";
import { parseTrtllmJsonText, parseTrtllmRecord } from "@/lib/formats/trtllm-record";
import { readResponseMetrics } from "@/lib/ingest/trtllm-response-metrics";
import { trtllmWorkerRoles, WORKER_FILES_SOURCE } from "@/lib/metrics/engine-run-facts";
import {
  joinTrtllmInSteps,
  type DisaggEntry,
  type JoinResult,
  type WorkerEntry,
} from "@/lib/metrics/trtllm-join";
import { ValueColumn } from "@/lib/metrics/regression/request-values";
import { RoleVotes } from "@/lib/metrics/trtllm-roles";
import { TRTLLM_CLOCK_ORIGIN_CHART } from "@/lib/api/chart-catalog";
import { summarizeTrtllm, type TrtllmSummary } from "@/lib/metrics/trtllm-summary";
import { TrtllmRequestFileWriter } from "@/lib/store/columnar/trtllm-request-file";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "../analyzer";
import { inTurns } from "../in-turns";

/**
 * Records (or requests) taken between two turns of the event loop while a run is finished: the
 * records read back from the record store, the joins and each pass of the summary (issue 31,
 * health within 100 ms during an ingest).
 */
const TURN_RECORDS = 1_000;

/** Runs stored before the request file (lib/store/columnar/trtllm-request-file.ts) keep rows here, cleared on re-ingest and delete. */
export const TRTLLM_TABLES = ["trtllm_requests"] as const;

/** A worker's name when no server URL names it: the file name without directories or extensions. */
export function workerNameOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return base.replace(/(\.gz)?$/i, "").replace(/\.(jsonl|json|txt)$/i, "");
}

export function trtllmAnalyzer(): Analyzer {
  // Block positions in the record store and file indexes: plain number arrays, no objects.
  const disaggAt: number[] = [];
  const disaggFile: number[] = [];
  const workerAt: number[] = [];
  const workerFile: number[] = [];
  const workerNames: string[] = [];
  // Records are held until the joins in `finish`: compactly, with their steps on disk.
  const store = new TrtllmRecordStore();
  let incomplete = 0;

  /**
   * Hands every record value of a file to `take`, in order. JSONL (the large files) goes through
   * a synchronous loop per chunk of lines; the older JSON array and a single JSON object (one
   * record, possibly spread over lines) element by element. A JSONL line that is an array
   * (one `/perf_metrics` poll) hands over each of its elements.
   */
  async function forEachValue(
    file: IngestFile,
    ctx: IngestContext,
    warnings: WarningLog,
    counts: { skipped: number },
    take: (value: unknown, line: number | undefined) => void,
  ): Promise<void> {
    const stream = await file.open();
    if (file.format === "aiperf-raw" || file.format === "http-capture") {
      await readResponseMetrics(
        stream,
        file.name,
        file.format,
        ctx.limits.maxLineBytes,
        warnings,
        counts,
        take,
      );
      return;
    }
    if (file.format === "json-array") {
      const result = { truncated: false, trailing: false };
      for await (const el of readJsonArrayElements(stream, result, ctx.limits.maxLineBytes)) {
        const value = el.text === null ? PARSE_FAILED : parseTrtllmJsonText(el.text);
        if (value === PARSE_FAILED) {
          counts.skipped++;
          warnings.add(`skipped array element ${el.index}: not valid JSON or too large`);
        } else take(value, undefined);
      }
      if (result.truncated)
        warnings.add("the JSON array is truncated; elements after the last complete one are lost");
      if (result.trailing)
        warnings.add("content after the JSON array's end is not an array and was not read");
      return;
    }
    if (file.format === "json") {
      const chunks: Buffer[] = [];
      let bytes = 0;
      for await (const c of stream as AsyncIterable<Buffer>) {
        bytes += c.length;
        if (bytes > ctx.limits.maxJsonDocumentBytes) throw new Error("JSON document larger than the limit");
        chunks.push(c);
      }
      const value = parseTrtllmJsonText(
        Buffer.concat(chunks)
          .toString("utf8")
          .replace(/^\uFEFF/, ""),
      );
      if (value === PARSE_FAILED) {
        counts.skipped++;
        warnings.add("skipped document: not valid JSON");
      } else take(value, undefined);
      return;
    }
    // A line may hold an array of records: one `/perf_metrics` poll per line.
    await eachJsonLine(
      stream,
      new JsonLineParser(warnings, counts, parseTrtllmJsonText),
      { maxLineBytes: ctx.limits.maxLineBytes },
      (value, line) => {
        if (!Array.isArray(value)) return take(value, line);
        for (const el of value as unknown[]) take(el, line);
      },
    );
  }

  return {
    name: "trtllm",
    tables: TRTLLM_TABLES,
    accepts: (file) => file.kind === "trtllm-perf-metrics",

    async ingestFile(file, ctx): Promise<FileReport> {
      const warnings = new WarningLog();
      const counts = { skipped: 0 };
      const fileIndex = workerNames.length;
      workerNames.push(workerNameOf(file.name));
      const votes = new RoleVotes();
      let records = 0;
      let disaggRecords = 0;
      let workerRecords = 0;
      await forEachValue(file, ctx, warnings, counts, (value, line) => {
        const parsed = parseTrtllmRecord(value, store.keepSteps);
        if ("error" in parsed) {
          counts.skipped++;
          warnings.add(`skipped: ${parsed.error}`, line);
          return;
        }
        records++;
        const rec = parsed.record;
        if (rec.status !== null && rec.status !== "complete") {
          incomplete++;
          return;
        }
        if (rec.type === "disagg") {
          disaggRecords++;
          disaggAt.push(store.addDisagg(rec));
          disaggFile.push(fileIndex);
        } else {
          workerRecords++;
          votes.addContent(rec);
          workerAt.push(store.addWorker(rec));
          workerFile.push(fileIndex);
        }
      });
      const role = workerRecords === 0 ? (disaggRecords > 0 ? "disagg-server" : null) : votes.role();
      return {
        records,
        skipped: counts.skipped,
        warnings: warnings.toList(),
        meta: { role, disaggRecords, workerRecords },
      };
    },

    async finish(ctx): Promise<AnalyzerResult> {
      if (disaggAt.length === 0 && workerAt.length === 0) {
        store.close();
        return {};
      }
      const disaggs: DisaggEntry[] = [];
      for (let i = 0; i < disaggAt.length; i++) {
        disaggs.push({ rec: store.disagg(disaggAt[i]), file: disaggFile[i] });
        if ((i + 1) % TURN_RECORDS === 0) await nextTurn();
      }
      const workers: WorkerEntry[] = [];
      for (let i = 0; i < workerAt.length; i++) {
        workers.push({ rec: store.worker(workerAt[i]), file: workerFile[i] });
        if ((i + 1) % TURN_RECORDS === 0) await nextTurn();
      }
      const join = await inTurns(joinTrtllmInSteps(disaggs, workers, workerNames.length, workerNames));
      // The run's request rows go to its Parquet file, written before the summary commits.
      const writer = new TrtllmRequestFileWriter(ctx.db, ctx.runId);
      // The stored rows' own TTFT and E2E, which verdicts on the run resample.
      const ttft = new ValueColumn();
      const e2e = new ValueColumn();
      let summary: TrtllmSummary;
      try {
        summary = await summarizeTrtllm(
          join,
          workerNames,
          (row) => {
            ttft.add(row.ttft_ms);
            e2e.add(row.e2e_ms);
            return writer.push(row);
          },
          () => nextTurn(),
        );
        await writer.write();
      } finally {
        writer.discard();
        store.close();
      }
      const warnings = summary.warnings.map((w) => `TensorRT-LLM perf metrics: ${w}`);
      if (incomplete > 0)
        warnings.push(
          `TensorRT-LLM perf metrics: ${plural(incomplete, "record")} with a status other than "complete" were left out`,
        );
      return {
        timeBreakdown: summary.timeBreakdown,
        endpoints: summary.endpoints,
        charts: { ...summary.charts, [TRTLLM_CLOCK_ORIGIN_CHART.key]: { originS: summary.originS } },
        collectors:
          summary.returnPerfMetrics === null ? {} : { returnPerfMetrics: summary.returnPerfMetrics },
        warnings,
        backend: "trtllm",
        facts: workerFacts(join, new Set(workerFile)),
        requestCount: summary.requestCount,
        requestValues: {
          server_ttft: await inTurns(ttft.sortedInSteps()),
          server_e2e: await inTurns(e2e.sortedInSteps()),
        },
        info: {
          "TRT-LLM serving": join.mode,
          ...(join.joinedByDisaggId + join.joinedByCtxId > 0
            ? {
                "TRT-LLM joins": `${join.joinedByDisaggId} by disagg_request_id, ${join.joinedByCtxId} by ctx_request_id`,
              }
            : {}),
        },
      };
    },
  };
}

/** The run's workers per role, one per worker file (or server), for the GPU count (docs/metrics.md §Run facts). */
function workerFacts(join: JoinResult, files: ReadonlySet<number>): AnalyzerResult["facts"] {
  const roles = trtllmWorkerRoles(
    [...files]
      .sort((a, b) => a - b)
      .map((file) => ({
        file,
        role: join.fileRoles[file] ?? "combined",
        server: join.fileServers[file] ?? null,
      })),
  );
  return roles.length > 0 ? { roles: { value: roles, source: WORKER_FILES_SOURCE } } : {};
}
