import { describe, expect, it } from "vitest";
import { LineSplitter } from "@/lib/formats/read-lines";
import { type LineBlock, LineBlockBuilder } from "@/lib/ingest/line-blocks";

/** The blocks a file's bytes make, fed in `chunks` (each reused by the source after its push, as a stream may) */
function blocksOf(bytes: Buffer, cut: number[], blockBytes: number, maxLineBytes = 1 << 20) {
  const blocks: LineBlock[] = [];
  const splitter = new LineSplitter({ endedWithoutNewline: false, overlongLines: [] }, { maxLineBytes });
  const lines = new LineBlockBuilder(blockBytes, (b) => blocks.push(b));
  const reused = Buffer.alloc(bytes.length);
  let at = 0;
  for (const end of [...cut, bytes.length]) {
    const chunk = reused.subarray(0, end - at);
    bytes.copy(chunk, 0, at, end);
    splitter.pushTo(chunk, lines.add);
    lines.settle();
    chunk.fill(0x58); // the source reuses its buffer: what the block holds must be a copy by now
    at = end;
  }
  splitter.endTo(lines.add);
  lines.flush();
  return blocks.map((b) => ({
    text: Buffer.from(b.bytes.buffer, 0, b.length).toString("latin1"),
    lineNos: [...b.lineNos],
  }));
}

/** What the blocks must hold: each line's own bytes joined by "\n", cut once a block reaches `blockBytes` */
function expected(bytes: Buffer, blockBytes: number, maxLineBytes = 1 << 20) {
  const out: Array<{ text: string; lineNos: number[] }> = [];
  let cur: { parts: string[]; lineNos: number[]; bytes: number } = { parts: [], lineNos: [], bytes: 0 };
  const splitter = new LineSplitter({ endedWithoutNewline: false, overlongLines: [] }, { maxLineBytes });
  const sink = (lineNo: number, src: Buffer, start: number, end: number) => {
    cur.bytes += (cur.parts.length > 0 ? 1 : 0) + end - start;
    cur.parts.push(src.toString("latin1", start, end));
    cur.lineNos.push(lineNo);
    if (cur.bytes >= blockBytes) {
      out.push({ text: cur.parts.join("\n"), lineNos: cur.lineNos });
      cur = { parts: [], lineNos: [], bytes: 0 };
    }
  };
  splitter.pushTo(bytes, sink);
  splitter.endTo(sink);
  if (cur.parts.length > 0) out.push({ text: cur.parts.join("\n"), lineNos: cur.lineNos });
  return out;
}

describe("LineBlockBuilder", () => {
  // LF, CRLF, lone CRs, blank lines, a BOM, an overlong line, a line longer than a block and no final newline
  const text =
    "\ufeff" +
    '{"a":1}\n{"b":2}\n\n{"c":3}\r\n{"d":4}\r{"e":5}\n' +
    `${"x".repeat(70)}\n{"f":6}\n${"y".repeat(40)}\n` +
    Array.from({ length: 40 }, (_, i) => `{"n":${i}}`).join("\n") +
    '\n\n\r\n{"last":true}';
  const bytes = Buffer.from(text, "utf8");

  it("holds each line's bytes and number as a line-by-line copy does, however the input is cut", () => {
    for (const blockBytes of [16, 32, 64, 1 << 20]) {
      const want = expected(bytes, blockBytes, 60);
      for (const step of [1, 2, 3, 7, 16, 64, bytes.length]) {
        const cut: number[] = [];
        for (let at = step; at < bytes.length; at += step) cut.push(at);
        expect(blocksOf(bytes, cut, blockBytes, 60), `block ${blockBytes}, chunks of ${step}`).toEqual(want);
      }
    }
  });
});
