/**
 * Dynamo frontend (KV router) logs: one routing decision per request (docs/formats.md §Router
 * logs). The router writes, at DEBUG, `[ROUTING] Best: worker_<id> dp_rank=<r> with <o>/<t> blocks
 * overlap` with the structured fields `request_id`, `worker_id`, `dp_rank`, `overlap_blocks` and
 * `total_blocks` (t = the prompt's blocks, ⌈ISL / block size⌉); at INFO the selector writes
 * `Selected worker: worker_type=<prefill|decode>, worker_id=<id> …`, which names the worker's role
 * but not the prompt's size. Both as the readable format (ANSI colours on unless disabled) or as
 * JSONL (`DYN_LOGGING_JSONL=1`: `time`, `level`, `target`, `message` and the fields).
 */
import type { Readable } from "node:stream";
import type { WarningLog } from "./json-lines";
import { readLines } from "./read-lines";

/** The decisions of one log as columns: a long run's frontend logs a line per request. */
export interface RouterLog {
  /** Epoch ms of each decision, NaN where the line carries no time. */
  timeMs: number[];
  /** Index into `workers` */
  worker: number[];
  overlapBlocks: number[];
  totalBlocks: number[];
  workers: RouterLogWorker[];
  /** `Selected worker` lines: decisions whose prompt size the log does not give. */
  selectedLines: number;
}

export interface RouterLogWorker {
  /** Dynamo's worker instance id (etcd lease id), decimal as logged */
  id: string;
  dpRank: number | null;
  /** From `Selected worker` lines; null when the log has none for this worker */
  type: string | null;
}

export const ROUTING_MARK = "[ROUTING] Best:";
export const SELECTED_MARK = "Selected worker";

// The overlap can be fractional where the router weighs host and disk tiers (effective blocks).
const ROUTING =
  /\[ROUTING\] Best: worker_(\d+)(?: dp_rank=(\d+))? with (\d+(?:\.\d+)?)\/(\d+) blocks overlap/;
// Readable `key=value` or JSONL `"key":value`; ids are read as digits (they exceed 2^53).
const WORKER_TYPE = /\bworker_type"?\s*[=:]\s*"?(\w+)/;
const WORKER_ID = /\bworker_id"?\s*[=:]\s*"?(\d+)/;
const DP_RANK = /\bdp_rank"?\s*[=:]\s*"?(?:Some\()?(\d+)/;
// Dynamo's readable timer: %Y-%m-%dT%H:%M:%S%.6fZ, or with the local offset (DYN_LOG_USE_LOCAL_TZ).
const LEADING_TIME = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:?\d\d)?/;
// Colours are on by default even when the frontend's stderr goes to a file.
const ANSI = /\x1b\[[0-9;]*m/g;

/** Epoch ms of an ISO time with any number of fraction digits (Date.parse takes three). */
export function isoToMs(text: string): number {
  const m = LEADING_TIME.exec(text);
  if (!m) return NaN;
  const frac = (m[2] ?? ".000").slice(0, 4).padEnd(4, "0");
  return Date.parse(`${m[1]}${frac}${m[3] ?? "Z"}`);
}

interface LineParts {
  message: string;
  /** The line without colours: readable fields follow the message, JSONL fields surround it */
  line: string;
  timeMs: number;
}

function partsOf(raw: string): LineParts | null {
  const text = raw.replace(ANSI, "");
  const brace = text.indexOf("{");
  if (brace === 0 || (brace > 0 && text.slice(0, brace).trim() === "")) {
    let obj: unknown;
    try {
      obj = JSON.parse(text.slice(brace));
    } catch {
      return null;
    }
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) return null;
    const fields = obj as Record<string, unknown>;
    return {
      message: typeof fields.message === "string" ? fields.message : "",
      line: text,
      timeMs: typeof fields.time === "string" ? isoToMs(fields.time) : NaN,
    };
  }
  return { message: text, line: text, timeMs: isoToMs(text) };
}

/** Reads every line; malformed routing lines are skipped and reported, other lines ignored. */
export async function readRouterLog(
  stream: Readable,
  warnings: WarningLog,
  counts: { records: number; skipped: number },
  maxLineBytes?: number,
): Promise<RouterLog> {
  const log: RouterLog = {
    timeMs: [],
    worker: [],
    overlapBlocks: [],
    totalBlocks: [],
    workers: [],
    selectedLines: 0,
  };
  const index = new Map<string, number>();
  const workerOf = (id: string, dpRank: number | null): number => {
    const key = `${id}|${dpRank ?? ""}`;
    let i = index.get(key);
    if (i === undefined) {
      i = log.workers.length;
      log.workers.push({ id, dpRank, type: null });
      index.set(key, i);
    }
    return i;
  };
  const types = new Map<string, string>();
  const report = { endedWithoutNewline: false, overlongLines: [] as number[] };
  for await (const { lineNo, text } of readLines(stream, report, { maxLineBytes })) {
    const hasRouting = text.includes(ROUTING_MARK);
    const hasSelected = !hasRouting && text.includes(SELECTED_MARK);
    if (!hasRouting && !hasSelected) continue;
    const parts = partsOf(text);
    if (parts === null) {
      if (hasRouting) {
        counts.skipped++;
        warnings.add("routing line is not valid JSON", lineNo);
      }
      continue;
    }
    if (hasSelected) {
      if (!parts.message.includes(SELECTED_MARK)) continue;
      const type = WORKER_TYPE.exec(parts.line)?.[1];
      const id = WORKER_ID.exec(parts.line)?.[1];
      log.selectedLines++;
      if (type && id) types.set(id, type);
      continue;
    }
    const m = ROUTING.exec(parts.message);
    if (!m) {
      counts.skipped++;
      warnings.add(
        `routing line does not read "${ROUTING_MARK} worker_<id> … with <overlap>/<total> blocks overlap"`,
        lineNo,
      );
      continue;
    }
    const overlap = Number(m[3]);
    const total = Number(m[4]);
    if (!(total > 0) || overlap > total) {
      counts.skipped++;
      warnings.add(
        `routing line has ${m[3]}/${m[4]} blocks: the overlap must be within the prompt's blocks`,
        lineNo,
      );
      continue;
    }
    const dp = m[2] ?? DP_RANK.exec(parts.line)?.[1];
    log.timeMs.push(parts.timeMs);
    log.worker.push(workerOf(m[1], dp === undefined ? null : Number(dp)));
    log.overlapBlocks.push(overlap);
    log.totalBlocks.push(total);
    counts.records++;
  }
  for (const n of report.overlongLines) {
    counts.skipped++;
    warnings.add("line longer than the line limit, skipped", n);
  }
  for (const w of log.workers) w.type = types.get(w.id) ?? null;
  return log;
}
