/**
 * aiperf records parsed in blocks (on the parse thread, or inline for a small file) read exactly
 * as the line-by-line reader reads them: the same skipped lines with the same numbers and
 * reasons, in the same order, and the same request columns, turns, errors and stored rows.
 * Real records (test/fixtures/aiperf: aiperf's profile_export.jsonl from a Qwen run and
 * aiperf's documented error record) are mixed with every kind of bad line.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseAiperfRecord } from "@/lib/formats/aiperf-records";
import { eachRecordLine } from "@/lib/formats/json-lines";
import type { FileReport, IngestContext, IngestFile } from "@/lib/ingest/analyzer";
import { ingestRecordFile, type BlockOptions } from "@/lib/ingest/analyzers/aiperf-record-ingest";
import { aiperfRecordRow } from "@/lib/ingest/analyzers/aiperf-request-row";
import { FLAG_CANCELLED, FLAG_ERROR, FLAG_WARMUP } from "@/lib/metrics/requests-log";
import { BatchInserter } from "@/lib/store/batch-insert";
import { migrate, openSqlite } from "@/lib/store/db";
import { AIPERF_REQUEST_COLUMNS } from "@/lib/store/tables/aiperf";
import { freshRecordSinks } from "../helpers/record-sinks";
import { AIPERF_FIXTURES } from "./aiperf-helpers";

const fixtureLines = (name: string) =>
  fs.readFileSync(path.join(AIPERF_FIXTURES, name), "utf8").split("\n").filter(Boolean);
const real = fixtureLines("qwen-c4__profile_export.jsonl");
const errorRecord = fixtureLines("doc-error-record__profile_export.jsonl")[0];

const MAX_LINE_BYTES = 8000;

function withMeta(line: string, patch: (m: Record<string, unknown>) => void): string {
  const v = JSON.parse(line);
  patch(v.metadata);
  return JSON.stringify(v);
}

/** Every kind of line a broken or unusual writer produces, among real records. */
function hostileFile(copies: number): Buffer {
  const lines: string[] = [];
  for (let c = 0; c < copies; c++) {
    lines.push(...real.slice(0, 4));
    lines.push("", "   ", "not json {", "[1,2]", '{"metrics":{}}', errorRecord);
    lines.push(
      real[4].replace(/"time_to_first_token": \{"value": [^,]+/, '"time_to_first_token": {"value": NaN'),
    );
    lines.push(
      real[5].replace(/"input_sequence_length": \{"value": \d+/, '"input_sequence_length": {"value": -3'),
    );
    lines.push(withMeta(real[6], (m) => (m.benchmark_phase = "warmup")));
    lines.push(withMeta(real[7], (m) => (m.was_cancelled = true)));
    lines.push(real[8].replace(/"request_start_ns": \d+/, '"request_start_ns": 99999999999999999999'));
    lines.push(real[9].replace(/"request_end_ns": \d+/, '"request_end_ns": 1.7625519e18'));
    lines.push(withMeta(real[0], (m) => ((m.conversation_id = `conv-${c % 3}`), (m.turn_index = c))));
    lines.push("{ broken");
    lines.push(`{"pad":"${"x".repeat(MAX_LINE_BYTES)}"}`);
  }
  // CRLF line ends in the second half, a BOM in front, a partial record at the end.
  const half = Math.floor(lines.length / 2);
  const text = `\ufeff${lines.slice(0, half).join("\n")}\n${lines.slice(half).join("\r\n")}\r\n${real[1].slice(0, 80)}`;
  return Buffer.from(text, "utf8");
}

/** The file's bytes in chunks of uneven sizes, so lines straddle chunk boundaries. */
function memoryFile(bytes: Buffer): IngestFile {
  return {
    id: "f1",
    ord: 0,
    name: "profile_export.jsonl",
    kind: "aiperf-records",
    format: "jsonl",
    bytes: bytes.length,
    sha256: "",
    open: async () => {
      const chunks: Buffer[] = [];
      for (let at = 0, i = 0; at < bytes.length; i++) {
        const size = [1, 7, 333, 4096, 65536][i % 5];
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      return Readable.from(chunks);
    },
  };
}

async function sinksOnFreshStore() {
  const handle = openSqlite(":memory:");
  await migrate(handle);
  const ctx: IngestContext = {
    runId: "r1",
    db: handle.db,
    dialect: handle.dialect,
    limits: { maxLineBytes: MAX_LINE_BYTES, maxJsonDocumentBytes: 1 << 20 },
  };
  const sinks = freshRecordSinks(new BatchInserter(handle.db, "aiperf_requests", AIPERF_REQUEST_COLUMNS));
  return { handle, ctx, sinks };
}

type Sinks = Awaited<ReturnType<typeof sinksOnFreshStore>>["sinks"];

/** The line-by-line read the analyzer did before blocks: one JSON.parse and record per line, here. */
async function lineByLine(file: IngestFile, ctx: IngestContext, s: Sinks): Promise<FileReport> {
  let records = 0;
  let warmup = 0;
  const options = { maxLineBytes: ctx.limits.maxLineBytes };
  const read = await eachRecordLine(await file.open(), options, parseAiperfRecord, (r, lineNo) => {
    records++;
    const flags =
      (r.phase === "warmup" ? FLAG_WARMUP : 0) |
      (r.error ? FLAG_ERROR : 0) |
      (r.cancelled ? FLAG_CANCELLED : 0);
    if (r.phase === "warmup") warmup++;
    else if (!r.cancelled)
      s.clock.noteRequest(
        r.startNs === null ? null : Number(r.startNs),
        r.endNs === null ? null : Number(r.endNs),
      );
    const i = s.log.length;
    s.log.add(r, flags);
    const possible = s.reuse.next(
      r.conversationId ?? null,
      r.turnIndex ?? null,
      r.inputTokens,
      r.outputTokens,
      r.error !== null,
      r.phase === "profiling",
    );
    s.turns.add(
      r.turnIndex ?? null,
      r.cachedTokens ?? null,
      possible,
      s.conversations.of(r.conversationId ?? null),
    );
    const startMs = s.log.cols.startMs[i];
    const endMs = s.log.cols.endMs[i];
    if (r.error && r.phase === "profiling")
      s.errors.add(r.error.type, r.error.code, r.error.message, startMs);
    if (s.rows.push(aiperfRecordRow(ctx.runId, file.id, lineNo, r, startMs, endMs, possible)))
      return s.rows.flush();
  });
  await s.rows.flush();
  return {
    records,
    skipped: read.skipped,
    warnings: read.warnings.toList(),
    meta: { warmupRecords: warmup },
  };
}

async function readWith(bytes: Buffer, how: "line by line" | BlockOptions) {
  const { handle, ctx, sinks } = await sinksOnFreshStore();
  const file = memoryFile(bytes);
  const report =
    how === "line by line"
      ? await lineByLine(file, ctx, sinks)
      : await ingestRecordFile(file, ctx, sinks, how);
  const rows = await handle.db.selectFrom("aiperf_requests").selectAll().orderBy("line").execute();
  await handle.close();
  const { log, turns, reuse, errors, clock } = sinks;
  return {
    report,
    rows,
    log: { length: log.length, baseNs: log.baseNs, flags: log.flags.slice(0, log.length), cols: log.cols },
    turns: { turn: turns.turn, cached: turns.cached, possible: turns.possible, multiTurn: turns.multiTurn },
    conversations: reuse.conversations,
    errors: errors.list(0),
    clock,
  };
}

describe("aiperf records read in blocks", () => {
  const bytes = hostileFile(40);

  it("read as line by line: warnings, columns, turns, errors and rows", async () => {
    const want = await readWith(bytes, "line by line");
    // The file does hold every case: skipped lines of each kind, warmup, errors, a partial end.
    const messages = want.report.warnings.map((w) => w.message);
    expect(messages).toContain("skipped line: not valid JSON");
    expect(messages).toContain("skipped line: not a JSON object");
    expect(messages).toContain("skipped line: no metadata object");
    expect(messages).toContain("skipped line: longer than the line-length limit");
    expect(messages.some((m) => m.startsWith("negative token count"))).toBe(true);
    expect(want.report.meta?.warmupRecords).toBe(40);
    expect(want.errors.length).toBeGreaterThan(0);
    for (const how of [
      { blockBytes: 9000, threadAfterBytes: 0 },
      { blockBytes: 9000, threadAfterBytes: 100_000 },
      { blockBytes: 1 << 20, threadAfterBytes: Infinity },
    ]) {
      const got = await readWith(bytes, how);
      expect(got.report, JSON.stringify(how)).toEqual(want.report);
      expect(got.rows).toEqual(want.rows);
      expect(got.log).toEqual(want.log);
      expect(got.turns).toEqual(want.turns);
      expect(got.conversations).toBe(want.conversations);
      expect(got.errors).toEqual(want.errors);
      expect(got.clock).toEqual(want.clock);
    }
  });

  it("decode broken UTF-8 as a line-by-line read does, inside a record and at a line's end", async () => {
    const [head, tail] = real[0].split('"x_request_id": "');
    const bytes = Buffer.concat([
      Buffer.from(`${head}"x_request_id": "a`),
      Buffer.from([0xff, 0xe2, 0x82]),
      Buffer.from(`b${tail}\n${real[1]}`),
      Buffer.from([0xe2, 0x82, 0x0a, 0xc3, 0x0d, 0x0a]),
      Buffer.from(`${real[2]}\n`),
    ]);
    const want = await readWith(bytes, "line by line");
    expect(want.rows.map((r) => r.line)).toEqual([1, 4]);
    expect(want.rows[0].request_id).toBe("a\ufffd\ufffdb" + tail.slice(0, tail.indexOf('"')));
    expect(want.report.warnings.map((w) => w.line)).toEqual([2, 3]);
    for (const blockBytes of [10, 1 << 20]) {
      const got = await readWith(bytes, { blockBytes, threadAfterBytes: 0 });
      expect(got.report).toEqual(want.report);
      expect(got.rows).toEqual(want.rows);
    }
  });

  it("name the partial last line as such, after the lines before it", async () => {
    const got = await readWith(bytes, { blockBytes: 9000, threadAfterBytes: 0 });
    expect(got.report.warnings.at(-1)?.message).toMatch(/^negative token count.*\(40×\)$/);
    const small = Buffer.from(`${real[0]}\n${real[1]}\n${real[2].slice(0, 50)}`);
    const tail = await readWith(small, { blockBytes: 10, threadAfterBytes: 0 });
    expect(tail.report).toMatchObject({ records: 2, skipped: 1 });
    expect(tail.report.warnings).toEqual([
      { line: 3, message: "skipped line: partial last line (file ends mid-record)" },
    ]);
  });
});
