/**
 * A run's request found by its own id, for the drill-down link `?rid=` (docs/http-api.md): the
 * position its drill-down opens it by, found by a query of the stored rows or the run's request
 * file that reads the matching rows only, never the whole run into memory.
 */
import { aiperfRequestId } from "@/lib/api/timeline";
import { aiperfRequestsSource } from "./columnar/aiperf-request-file";
import { queryRows } from "./columnar/engine";
import { trtllmRequestsSource } from "./columnar/trtllm-request-file";
import type { Db } from "./db";
import { getFiles } from "./runs-repo";

/** A request found by its id, or why the id opens nothing. */
export type RequestById =
  /** `position`: TensorRT-LLM's `idx`, or the aiperf timeline bar's id; `matches`: how many requests carry the id (the first by position opens). */
  | { found: true; source: "trtllm" | "aiperf"; position: number; matches: number }
  /** No request of the run carries the id, or (`noDrilldown`) the one that does has no start or end, or is a warm-up request: no drill-down shows it. */
  | { found: false; noDrilldown: boolean };

/**
 * The TensorRT-LLM request whose name is `id` (lib/metrics/trtllm-request-name.ts: its
 * `disagg_request_id`, else its `request_id`: a worker's log line has the latter), first by position; undefined when the run has no
 * TensorRT-LLM requests. At most two rows are read: enough to say the id is not unique.
 */
async function trtllmById(db: Db, runId: string, id: string): Promise<RequestById | undefined> {
  const src = await trtllmRequestsSource(db, runId);
  if (src) {
    // The run's request file is written only for a run with requests.
    const named = (column: "disagg_request_id" | "request_id") =>
      queryRows<{ idx: number }>(`select idx from ${src} where ${column} = $1 order by idx limit 2`, [id]);
    const byDisagg = await named("disagg_request_id");
    const rows = byDisagg.length > 0 ? byDisagg : await named("request_id");
    if (rows.length === 0) return { found: false, noDrilldown: false };
    return { found: true, source: "trtllm", position: rows[0].idx, matches: rows.length };
  }
  const any = await db
    .selectFrom("trtllm_requests")
    .select("idx")
    .where("run_id", "=", runId)
    .limit(1)
    .executeTakeFirst();
  if (!any) return undefined;
  const named = (column: "disagg_request_id" | "request_id") =>
    db
      .selectFrom("trtllm_requests")
      .select("idx")
      .where("run_id", "=", runId)
      .where(column, "=", id)
      .orderBy("idx")
      .limit(2)
      .execute();
  const byDisagg = await named("disagg_request_id");
  const rows = byDisagg.length > 0 ? byDisagg : await named("request_id");
  if (rows.length === 0) return { found: false, noDrilldown: false };
  return { found: true, source: "trtllm", position: rows[0].idx, matches: rows.length };
}

interface AiperfIdRow {
  file_id: string;
  line: number;
  phase: string;
  start_ms: number | null;
  end_ms: number | null;
}

/** The aiperf records whose `x_request_id` is `id` (at most three), from the run's request file or rows. */
async function aiperfRowsById(db: Db, runId: string, id: string): Promise<AiperfIdRow[]> {
  const src = await aiperfRequestsSource(db, runId);
  if (src)
    return queryRows<AiperfIdRow>(
      `select file_id, line, phase, start_ms, end_ms from ${src} where request_id = $1 limit 3`,
      [id],
    );
  return db
    .selectFrom("aiperf_requests")
    .select(["file_id", "line", "phase", "start_ms", "end_ms"])
    .where("run_id", "=", runId)
    .where("request_id", "=", id)
    .limit(3)
    .execute();
}

/**
 * The run's request whose own id is `id`: TensorRT-LLM's when the run has TensorRT-LLM requests
 * (their timeline and drill-down are the run's), else aiperf's record by its `x_request_id`,
 * opened as the timeline's bar (profiling requests with a start and an end).
 */
export async function requestById(db: Db, runId: string, id: string): Promise<RequestById> {
  const trtllm = await trtllmById(db, runId, id);
  if (trtllm) return trtllm;
  const rows = await aiperfRowsById(db, runId, id);
  if (rows.length === 0) return { found: false, noDrilldown: false };
  const files = await getFiles(db, runId);
  const fileIndex = new Map(files.map((f, i) => [f.id, i]));
  const opened = rows
    .filter((r) => r.phase === "profiling" && r.start_ms !== null && r.end_ms !== null)
    .map((r) => ({ f: fileIndex.get(r.file_id), line: r.line }))
    .filter((r): r is { f: number; line: number } => r.f !== undefined)
    .sort((a, b) => a.f - b.f || a.line - b.line);
  if (opened.length === 0) return { found: false, noDrilldown: true };
  return {
    found: true,
    source: "aiperf",
    position: aiperfRequestId(opened[0].f, opened[0].line),
    matches: Math.min(rows.length, 2),
  };
}
