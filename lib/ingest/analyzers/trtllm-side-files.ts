/**
 * TensorRT-LLM side files (per-rank time events, `/metrics` iteration stats, request stats): kept
 * as files of the run and counted, not charted. The Files view says what each holds and what a
 * chart of it would show, so a user knows the file arrived and why no view draws it
 * (docs/formats.md §TensorRT-LLM side files).
 */
import { readJsonArrayElements } from "@/lib/formats/json-array";
import { PARSE_FAILED, parseJsonText, readJsonLines, WarningLog } from "@/lib/formats/json-lines";
import { SIDE_FILE_NOTES, sideFileFormatOf, type SideFileFormat } from "@/lib/formats/trtllm-side-files";
import { peek } from "../peek";
import type { Analyzer, FileReport, IngestContext, IngestFile } from "../analyzer";

export function trtllmSideFilesAnalyzer(): Analyzer {
  return {
    name: "trtllm-side-files",
    tables: [],
    accepts: (file) => file.kind === "trtllm-side-file",
    ingestFile: countSideFile,
    finish: async () => ({}),
  };
}

async function countSideFile(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
  const format = file.format as SideFileFormat;
  const warnings = new WarningLog();
  const counts = { records: 0, skipped: 0 };
  const { head, stream } = await peek(await file.open(), 64);
  // A JSON array (one `/metrics` answer) or arrays one per line (a poller's log) against JSONL objects.
  const text = head.toString("utf8").replace(/^\uFEFF/, "");
  if (text.trimStart().startsWith("[")) {
    const result = { truncated: false, trailing: false };
    for await (const el of readJsonArrayElements(stream, result, ctx.limits.maxLineBytes)) {
      const value = el.text === null ? PARSE_FAILED : parseJsonText(el.text);
      if (value !== PARSE_FAILED && sideFileFormatOf(value) === format) counts.records++;
      else {
        counts.skipped++;
        warnings.add(`skipped array element ${el.index}: not ${describe(format)}`);
      }
    }
    if (result.truncated)
      warnings.add("the JSON array is truncated; elements after the last complete one are lost");
    if (result.trailing) warnings.add("content after the JSON array's end is not an array and was not read");
  } else {
    const result = { skipped: 0 };
    for await (const line of readJsonLines(stream, warnings, result, {
      maxLineBytes: ctx.limits.maxLineBytes,
    })) {
      if (sideFileFormatOf(line.value) === format) counts.records++;
      else {
        counts.skipped++;
        warnings.add(`skipped line: not ${describe(format)}`, line.lineNo);
      }
    }
    counts.skipped += result.skipped;
  }
  const note = SIDE_FILE_NOTES[format];
  return {
    records: counts.records,
    skipped: counts.skipped,
    warnings: warnings.toList(),
    meta: { holds: note.holds, charted: `no; a chart of it would show ${note.wouldGive}` },
  };
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
