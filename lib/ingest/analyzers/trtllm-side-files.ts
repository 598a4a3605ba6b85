/**
 * TensorRT-LLM side files (per-rank time events, `/metrics` iteration stats, request stats): kept
 * as files of the run and counted, not charted. The Files view says what each holds and what a
 * chart of it would show, so a user knows the file arrived and why no view draws it
 * (docs/formats.md §TensorRT-LLM side files).
 */
import { readJsonArrayElements } from "@/lib/formats/json-array";
import {
  eachJsonLine,
  JsonLineParser,
  PARSE_FAILED,
  parseJsonText,
  WarningLog,
} from "@/lib/formats/json-lines";
import { SIDE_FILE_NOTES, sideFileFormatOf, type SideFileFormat } from "@/lib/formats/trtllm-side-files";
import { parseTimeEventsText, timeEventOf } from "@/lib/formats/trtllm-time-events";
import { TRTLLM_TIME_EVENT_FILES_CHART } from "@/lib/api/chart-catalog";
import type { TrtllmTimeEventFilesPayload } from "@/lib/api/request-journey";
import { TimeEventsOfFile, type TimeEventPiece } from "@/lib/metrics/trtllm-time-event-join";
import {
  TimeEventFileWriter,
  type TimeEventFileRequests,
} from "@/lib/store/columnar/trtllm-time-events-file";
import { peek } from "../peek";
import type { Analyzer, FileReport, IngestContext, IngestFile } from "../analyzer";

/**
 * The run's time events as they are stored for the request journey (lib/runs/request-journey.ts):
 * each request's lines of a file, handed to the run's time-events Parquet file as a row keyed by
 * its ids once its last event is read (or at the file's end), so what is held is the requests in
 * flight, never the run's list; the file is written once every file is read. What the Files view
 * says of a file's requests is counted from its staged rows (`fileRequests`), not held here.
 */
class TimeEventsStore {
  readonly files: TrtllmTimeEventFilesPayload["files"] = [];
  private writer: TimeEventFileWriter | null = null;
  private queued: Array<{ piece: TimeEventPiece; finished: boolean; stoppedAfter: string | null }> = [];
  /** The most requests one file held in flight */
  maxPending = 0;

  startFile(name: string, ctx: IngestContext): TimeEventsOfFile {
    this.writer ??= new TimeEventFileWriter(ctx.db, ctx.runId);
    this.files.push({ file: name, requests: 0 });
    return new TimeEventsOfFile(this.files.length - 1);
  }

  /**
   * Queues a piece (one that reached its last event unless `stoppedAfter` is given); written a
   * batch at a time by `drain`.
   */
  queue(piece: TimeEventPiece, unfinished?: { stoppedAfter: string | null }): void {
    this.queued.push({ piece, finished: !unfinished, stoppedAfter: unfinished?.stoppedAfter ?? null });
  }

  async drain(): Promise<void> {
    const pieces = this.queued;
    this.queued = [];
    for (const { piece: p, finished, stoppedAfter } of pieces)
      await this.writer!.add(
        {
          role: p.role,
          req_key: p.reqKey,
          request_id: p.requestId,
          ctx_request_id: p.ctxRequestId,
          disagg_request_id: p.disaggRequestId,
          file_no: p.file,
          events_json: JSON.stringify(p.events),
        },
        finished,
        stoppedAfter,
      );
  }

  /** Writes the file's last pieces and says what its requests are (counted from its rows). */
  async endFile(of: TimeEventsOfFile): Promise<TimeEventFileRequests> {
    for (const u of of.endStopped()) this.queue(u.piece, u);
    await this.drain();
    const requests = await this.writer!.fileRequests(of.file, UNFINISHED_SHOWN);
    this.files[of.file].requests = requests.byRole.reduce((n, r) => n + r.requests, 0);
    this.maxPending = Math.max(this.maxPending, of.maxPending);
    return requests;
  }

  /** Writes the run's file (before the summary commits: a ready run has it) and says what it holds. */
  async finish(): Promise<TrtllmTimeEventFilesPayload | null> {
    const pieces = this.writer?.written ?? 0;
    if (!this.writer || !(await this.writer.write())) return null;
    return { files: this.files, pieces };
  }
}

/** Finished pieces held before they are handed to the writer. */
const QUEUED_PIECES = 256;

/** Unfinished requests the Files view names (the rest are counted). */
const UNFINISHED_SHOWN = 3;

export function trtllmSideFilesAnalyzer(): Analyzer {
  const events = new TimeEventsStore();
  return {
    name: "trtllm-side-files",
    // Runs stored before the time-events file keep rows there, cleared on re-ingest and delete.
    tables: ["trtllm_time_events"],
    accepts: (file) => file.kind === "trtllm-side-file",
    ingestFile: (file, ctx) => countSideFile(file, ctx, events),
    finish: async () => {
      const payload = await events.finish();
      return payload ? { charts: { [TRTLLM_TIME_EVENT_FILES_CHART.key]: payload } } : {};
    },
  };
}

async function countSideFile(
  file: IngestFile,
  ctx: IngestContext,
  events: TimeEventsStore,
): Promise<FileReport> {
  const format = file.format as SideFileFormat;
  const warnings = new WarningLog();
  const counts = { records: 0, skipped: 0 };
  // Time events join each request's lines by its id, read exactly (64-bit snowflakes).
  const ofFile = format === "time-events" ? events.startFile(file.name, ctx) : null;
  const parseText = ofFile ? parseTimeEventsText : parseJsonText;
  let queued = 0;
  // A promise only when a batch of finished pieces is to be written.
  const keep = (value: unknown): Promise<void> | undefined => {
    if (!ofFile) return;
    const e = timeEventOf(value);
    if (!e) return;
    const piece = ofFile.add(e);
    if (!piece) return;
    events.queue(piece);
    if (++queued < QUEUED_PIECES) return;
    queued = 0;
    return events.drain();
  };
  const { head, stream } = await peek(await file.open(), 64);
  // A JSON array (one `/metrics` answer) or arrays one per line (a poller's log) against JSONL objects.
  const text = head.toString("utf8").replace(/^\uFEFF/, "");
  if (text.trimStart().startsWith("[")) {
    const result = { truncated: false, trailing: false };
    for await (const el of readJsonArrayElements(stream, result, ctx.limits.maxLineBytes)) {
      const value = el.text === null ? PARSE_FAILED : parseText(el.text);
      if (value !== PARSE_FAILED && sideFileFormatOf(value) === format) {
        counts.records++;
        const wait = keep(value);
        if (wait) await wait;
      } else {
        counts.skipped++;
        warnings.add(`skipped array element ${el.index}: not ${describe(format)}`);
      }
    }
    if (result.truncated)
      warnings.add("the JSON array is truncated; elements after the last complete one are lost");
    if (result.trailing) warnings.add("content after the JSON array's end is not an array and was not read");
  } else {
    const result = { skipped: 0 };
    const parser = new JsonLineParser(warnings, result, parseText);
    await eachJsonLine(stream, parser, { maxLineBytes: ctx.limits.maxLineBytes }, (value, lineNo) => {
      if (sideFileFormatOf(value) === format) {
        counts.records++;
        return keep(value);
      }
      counts.skipped++;
      warnings.add(`skipped line: not ${describe(format)}`, lineNo);
    });
    counts.skipped += result.skipped;
  }
  const requests = ofFile ? await events.endFile(ofFile) : null;
  const note = SIDE_FILE_NOTES[format];
  return {
    records: counts.records,
    skipped: counts.skipped,
    warnings: warnings.toList(),
    meta: {
      holds: note.holds,
      charted: `no; a chart of it would show ${note.wouldGive}`,
      ...(requests ? requestsMeta(requests) : {}),
    },
  };
}

/** The order the Files view lists a file's roles in. */
const ROLE_ORDER = ["request", "ctx", "gen", "router"] as const;

/**
 * What the Files view says of a time-events file's requests: how many its ids join (per role),
 * and which per-event requests had not reached their last event (a hang shows where it stopped).
 */
function requestsMeta(requests: TimeEventFileRequests): Record<string, string | number> {
  const out: Record<string, string | number> = {
    requests: requests.byRole.reduce((n, r) => n + r.requests, 0),
  };
  const roles = ROLE_ORDER.flatMap((role) =>
    requests.byRole.filter((r) => r.role === role && role !== "request"),
  );
  if (roles.length > 0) out["requests by role"] = roles.map((r) => `${r.role} ${r.requests}`).join(", ");
  if (requests.unfinished > 0) {
    const shown = requests.firstUnfinished.map(
      (u) => `${u.role} ${u.requestId} stopped after ${u.stoppedAfter ?? "no event"}`,
    );
    out.unfinished = `${requests.unfinished}: ${shown.join("; ")}${requests.unfinished > shown.length ? "; …" : ""}`;
  }
  return out;
}

function describe(format: SideFileFormat): string {
  switch (format) {
    case "time-events":
      return "a time-events record";
    case "iteration-stats":
      return "an IterationStats object";
    case "request-stats":
      return "a RequestStatsPerIteration object";
  }
}
