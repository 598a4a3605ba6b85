/**
 * Reads the client files that keep TensorRT-LLM's per-request metrics (aiperf's raw export, an
 * HTTP capture; docs/formats.md §TensorRT-LLM metrics in responses) into perf-metrics records of
 * the released JSONL shape, handed to the TensorRT-LLM analyzer as its JSONL records are. Every
 * response is accounted for: read, without metrics (counted, with the likely reason), malformed
 * (skipped with its line), or without a request id (read, not joined, and the file named).
 */
import type { Readable } from "node:stream";
import { eachJsonLine, JsonLineParser, WarningLog } from "@/lib/formats/json-lines";
import { readLines } from "@/lib/formats/read-lines";
import { metricsRecordJson, parseMetricsFields } from "@/lib/formats/trtllm-metrics-headers";
import {
  aiperfRawMetrics,
  HttpCaptureReader,
  type ResponseMetrics,
} from "@/lib/formats/trtllm-response-metrics";
import { plural } from "@/lib/format-number";

export async function readResponseMetrics(
  stream: Readable | AsyncIterable<Buffer>,
  fileName: string,
  format: "aiperf-raw" | "http-capture",
  maxLineBytes: number,
  warnings: WarningLog,
  counts: { skipped: number },
  take: (value: unknown, line: number | undefined) => void,
): Promise<void> {
  let responses = 0;
  let without = 0;
  let noId = 0;
  let malformed = 0;
  let foreign = 0;
  let viaHeaders = 0;

  const one = (r: ResponseMetrics, line: number) => {
    responses++;
    if ("none" in r) {
      without++;
      return;
    }
    if ("error" in r) {
      counts.skipped++;
      warnings.add(`skipped: ${r.error}`, line);
      return;
    }
    const parsed = parseMetricsFields(r.fields);
    for (const item of parsed.malformed) warnings.add(`malformed metric field skipped: ${item}`, line);
    malformed += parsed.malformed.length;
    foreign += parsed.foreign.length;
    const record = metricsRecordJson(parsed, r.requestId);
    if (record === null) {
      counts.skipped++;
      warnings.add("skipped: no TensorRT-LLM metric field could be read", line);
      return;
    }
    if (r.via === "headers") viaHeaders++;
    if (r.requestId === null) noId++;
    take(record, line);
  };

  if (format === "aiperf-raw") {
    await eachJsonLine(stream, new JsonLineParser(warnings, counts), { maxLineBytes }, (value, line) =>
      one(aiperfRawMetrics(value), line),
    );
  } else {
    const reader = new HttpCaptureReader((r) => one(r, r.line));
    const report = { endedWithoutNewline: false, overlongLines: [] as number[] };
    for await (const { lineNo, text } of readLines(stream, report, { maxLineBytes }))
      reader.line(lineNo, text);
    reader.end();
    for (const line of report.overlongLines) {
      counts.skipped++;
      warnings.add("skipped line: longer than the line-length limit", line);
    }
  }

  if (without > 0)
    warnings.addTotal(
      format === "aiperf-raw"
        ? `${plural(without, "record")} of ${responses} without a trtllm.perf_metrics event (the server's return_perf_metrics off, the request without X-TRTLLM-return-metrics: 1, or a non-streamed response, whose metrics headers aiperf's raw export does not keep)`
        : `${plural(without, "response")} of ${responses} without TensorRT-LLM metrics headers or a trtllm.perf_metrics event`,
    );
  if (malformed > 0) warnings.addTotal(`${plural(malformed, "malformed metric field")} skipped`);
  if (foreign > 0) warnings.addTotal(`${plural(foreign, "Server-Timing item")} of another producer not read`);
  if (noId > 0)
    warnings.addTotal(
      format === "aiperf-raw"
        ? `${fileName} has no request id for ${plural(noId, "request")} (the client's x_request_id, in each record's metadata): they are counted and broken down, but cannot be matched to the client's requests`
        : `${fileName} has no request id for ${plural(noId, "response")}: TensorRT-LLM does not send back the id the client sent (the client's x_request_id, an X-Request-ID header), so they are counted and broken down, but cannot be matched to the client's requests`,
    );
  if (viaHeaders > 0 && format === "aiperf-raw")
    warnings.addTotal(`${plural(viaHeaders, "record")} read from response headers`);
}
