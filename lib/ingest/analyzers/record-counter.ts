/**
 * The fallback analyzer: every file no dedicated analyzer takes is still read through once,
 * so the Files view can show its record count and malformed lines.
 */
import { readJsonArrayElements } from "@/lib/formats/json-array";
import { PARSE_FAILED, parseJsonText, readJsonLines, WarningLog } from "@/lib/formats/json-lines";
import { readLines } from "@/lib/formats/read-lines";
import type { Analyzer, FileReport, IngestContext, IngestFile } from "../analyzer";

export function recordCounter(): Analyzer {
  return {
    name: "record-counter",
    tables: [],
    accepts: () => true,
    ingestFile: countRecords,
    finish: async () => ({}),
  };
}

export async function countRecords(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
  const warnings = new WarningLog();
  const stream = await file.open();
  let records = 0;
  let skipped = 0;
  switch (file.format) {
    case "jsonl": {
      const result = { skipped: 0 };
      for await (const line of readJsonLines(stream, warnings, result, {
        maxLineBytes: ctx.limits.maxLineBytes,
      })) {
        if (typeof line.value === "object" && line.value !== null) records++;
        else {
          skipped++;
          warnings.add("skipped line: not a JSON object", line.lineNo);
        }
      }
      skipped += result.skipped;
      break;
    }
    case "json-array": {
      const result = { truncated: false };
      for await (const el of readJsonArrayElements(stream, result)) {
        if (el.text !== null && parseJsonText(el.text) !== PARSE_FAILED) records++;
        else {
          skipped++;
          warnings.add(`skipped array element ${el.index}: not valid JSON`);
        }
      }
      if (result.truncated)
        warnings.add("the JSON array is truncated; elements after the last complete one are lost");
      break;
    }
    case "csv":
    case "timeslices-csv":
    case "prometheus":
    case "text":
    case "yaml": {
      for await (const line of readLines(stream)) {
        const t = line.text.trim();
        if (t !== "" && !t.startsWith("#")) records++;
      }
      break;
    }
    default: {
      // Whole documents (summary, server-metrics JSON, inputs): one record each.
      stream.resume();
      await new Promise((resolve, reject) => stream.on("end", resolve).on("error", reject));
      records = file.kind === "unknown" ? 0 : 1;
    }
  }
  return { records, skipped, warnings: warnings.toList() };
}
