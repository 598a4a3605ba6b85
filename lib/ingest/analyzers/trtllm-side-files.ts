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
import {
  MAX_TRACKED_REQUESTS,
  parseTimeEventsText,
  timeEventOf,
  TimeEventRequests,
} from "@/lib/formats/trtllm-time-events";
import { TRTLLM_TIME_EVENTS_CHART } from "@/lib/api/chart-catalog";
import { TimeEventsGather } from "@/lib/metrics/trtllm-time-event-join";
import { peek } from "../peek";
import type { Analyzer, FileReport, IngestContext, IngestFile } from "../analyzer";

export function trtllmSideFilesAnalyzer(): Analyzer {
  // The run's time-events requests, stored for the request journey (lib/runs/request-journey.ts).
  const gather = new TimeEventsGather();
  return {
    name: "trtllm-side-files",
    tables: [],
    accepts: (file) => file.kind === "trtllm-side-file",
    ingestFile: (file, ctx) => countSideFile(file, ctx, gather),
    finish: async () =>
      gather.requests > 0 ? { charts: { [TRTLLM_TIME_EVENTS_CHART.key]: gather.payload() } } : {},
  };
}

async function countSideFile(
  file: IngestFile,
  ctx: IngestContext,
  gather: TimeEventsGather,
): Promise<FileReport> {
  const format = file.format as SideFileFormat;
  const warnings = new WarningLog();
  const counts = { records: 0, skipped: 0 };
  // Time events join each request's lines by its id, read exactly (64-bit snowflakes).
  const requests = format === "time-events" ? new TimeEventRequests() : null;
  if (requests) gather.startFile(file.name);
  const parseText = requests ? parseTimeEventsText : parseJsonText;
  const keep = (value: unknown) => {
    if (requests) {
      const e = timeEventOf(value);
      if (e) {
        requests.add(e);
        gather.add(e);
      }
    }
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
        keep(value);
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
        keep(value);
      } else {
        counts.skipped++;
        warnings.add(`skipped line: not ${describe(format)}`, lineNo);
      }
    });
    counts.skipped += result.skipped;
  }
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

/**
 * What the Files view says of a time-events file's requests: how many its ids join (per role),
 * and which per-event requests had not reached their last event (a hang shows where it stopped).
 */
function requestsMeta(requests: TimeEventRequests): Record<string, string | number> {
  const out: Record<string, string | number> = {
    requests: requests.overflow ? `over ${MAX_TRACKED_REQUESTS.toLocaleString("en-US")}` : requests.count,
  };
  const roles = requests.byRole().filter(([role]) => role !== "request");
  if (roles.length > 0) out["requests by role"] = roles.map(([role, n]) => `${role} ${n}`).join(", ");
  const unfinished = requests.unfinished();
  if (unfinished.length > 0) {
    const shown = unfinished
      .slice(0, 3)
      .map((u) => `${u.role} ${u.requestId} stopped after ${u.stoppedAfter ?? "no event"}`);
    out.unfinished = `${unfinished.length}: ${shown.join("; ")}${unfinished.length > 3 ? "; …" : ""}`;
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
