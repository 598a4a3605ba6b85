/**
 * Property-based tests of the shared readers against simple reference models: any content, cut
 * into chunks at any points, reads the same; nothing throws on junk; memory stays bounded on an
 * enormous line.
 */
import { Readable } from "node:stream";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectKind } from "@/lib/formats/detect";
import { readJsonArrayElements } from "@/lib/formats/json-array";
import {
  JsonLineParser,
  PARSE_FAILED,
  parseJsonText,
  readJsonLines,
  WarningLog,
} from "@/lib/formats/json-lines";
import { readLineBatches, readLines } from "@/lib/formats/read-lines";
import { utf8Text } from "@/lib/formats/text-encoding";

/** Splits bytes at the given cut points (fractions of the length), like a network stream would. */
function chunked(bytes: Buffer, cuts: number[]): Readable {
  const points = [...new Set(cuts.map((c) => Math.floor(c * bytes.length)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    if (p > prev) out.push(bytes.subarray(prev, p));
    prev = Math.max(prev, p);
  }
  return Readable.from(out);
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const cuts = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 });
const lineText = fc.string({
  unit: fc.constantFrom("a", "é", "{", "}", '"', " ", "\r", "🙂", "x", ","),
  maxLength: 40,
});

describe("readLines", () => {
  it("yields exactly the lines of any text, whatever the chunking (LF, CRLF or CR, BOM dropped)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          lineText.map((l) => l.replace(/\r/g, "")),
          { minLength: 1, maxLength: 20 },
        ),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.boolean(),
        fc.boolean(),
        cuts,
        async (lines, eol, bom, trailingNewline, cutAt) => {
          const text = (bom ? "\ufeff" : "") + lines.join(eol) + (trailingNewline ? eol : "");
          const report = { endedWithoutNewline: false, overlongLines: [] as number[] };
          const got = await collect(readLines(chunked(Buffer.from(text), cutAt), report));
          // A file of only a BOM still has bytes on its one (empty) line.
          const partialLast =
            !trailingNewline && (lines[lines.length - 1] !== "" || (bom && lines.length === 1));
          const expected = trailingNewline || partialLast ? lines : lines.slice(0, -1);
          expect(got.map((l) => l.text)).toEqual(expected);
          expect(got.map((l) => l.lineNo)).toEqual(expected.map((_, i) => i + 1));
          expect(report.endedWithoutNewline).toBe(partialLast);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("drops and reports every line over the limit, keeps the others", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: 60 }), { minLength: 1, maxLength: 15 }),
        cuts,
        async (lengths, cutAt) => {
          const lines = lengths.map((n, i) => String(i % 10).repeat(n));
          const max = 30;
          const report = { endedWithoutNewline: false, overlongLines: [] as number[] };
          const got = await collect(
            readLines(chunked(Buffer.from(lines.join("\n") + "\n"), cutAt), report, { maxLineBytes: max }),
          );
          const long = lines.map((l, i) => (l.length > max ? i + 1 : 0)).filter(Boolean);
          expect(report.overlongLines).toEqual(long);
          expect(got.map((l) => l.text)).toEqual(lines.filter((l) => l.length <= max));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads the same lines and report in batches as line by line", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.nat({ max: 60 }), { minLength: 1, maxLength: 15 }),
        fc.boolean(),
        cuts,
        async (lengths, trailingNewline, cutAt) => {
          const bytes = Buffer.from(
            lengths.map((n, i) => String(i % 10).repeat(n)).join("\n") + (trailingNewline ? "\n" : ""),
          );
          const options = { maxLineBytes: 30 };
          const byLine = { endedWithoutNewline: false, overlongLines: [] as number[] };
          const lines = await collect(readLines(chunked(bytes, cutAt), byLine, options));
          const byBatch = { endedWithoutNewline: false, overlongLines: [] as number[] };
          const batches = await collect(readLineBatches(chunked(bytes, cutAt), byBatch, options));
          expect(batches.every((b) => b.length > 0)).toBe(true);
          expect(batches.flat()).toEqual(lines);
          expect(byBatch).toEqual(byLine);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("holds at most one line's limit in memory for a 256 MB line", async () => {
    const total = 256 * 1024 * 1024;
    const chunk = Buffer.alloc(1 << 20, 0x61);
    async function* source() {
      yield Buffer.from('{"ok":1}\n');
      for (let n = 0; n < total; n += chunk.length) yield chunk;
      yield Buffer.from('\n{"ok":2}\n');
    }
    global.gc?.();
    const base = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    let peak = base;
    const report = { endedWithoutNewline: false, overlongLines: [] as number[] };
    const lines: string[] = [];
    let n = 0;
    const tracked = (async function* () {
      for await (const c of source()) {
        if (++n % 16 === 0)
          peak = Math.max(peak, process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers);
        yield c;
      }
    })();
    for await (const l of readLines(tracked, report, { maxLineBytes: 4 << 20 })) lines.push(l.text);
    expect(lines).toEqual(['{"ok":1}', '{"ok":2}']);
    expect(report.overlongLines).toEqual([2]);
    expect(peak - base).toBeLessThan(64 * 1024 * 1024);
  });
});

describe("readJsonLines", () => {
  const item = fc.oneof(
    fc.record({
      good: fc.constant(true as const),
      v: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
    }),
    fc.record({
      good: fc.constant(false as const),
      v: fc.constantFrom('{"a":', "not json", "{]", '{"x":1}}', "[1,2", "nul"),
    }),
  );

  it("keeps every valid line, skips and numbers every broken one, lists at most 20", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 40 }), cuts, async (items, cutAt) => {
        const text = items.map((i) => (i.good ? JSON.stringify(i.v) : i.v)).join("\n") + "\n";
        const warnings = new WarningLog();
        const result = { skipped: 0 };
        const got = await collect(readJsonLines(chunked(Buffer.from(text), cutAt), warnings, result));
        const good = items.map((it, i) => ({ it, line: i + 1 })).filter((x) => x.it.good);
        expect(got.map((g) => g.value)).toEqual(good.map((g) => JSON.parse(JSON.stringify(g.it.v))));
        expect(got.map((g) => g.lineNo)).toEqual(good.map((g) => g.line));
        const bad = items.map((it, i) => (it.good ? 0 : i + 1)).filter(Boolean);
        expect(result.skipped).toBe(bad.length);
        expect(warnings.total).toBe(bad.length);
        expect(warnings.listed.map((w) => w.line)).toEqual(bad.slice(0, 20));
      }),
      { numRuns: 300 },
    );
  });
});

describe("JsonLineParser over line batches", () => {
  const line = fc.oneof(
    fc.constantFrom('{"a":1}', "[1,2]", "", "  ", "not json", '{"a":', "x".repeat(40), '{"b":NaN}'),
    fc.nat({ max: 99 }).map((n) => JSON.stringify({ n })),
  );

  it("keeps the values, skips and warnings of readJsonLines, in the same order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 30 }),
        fc.boolean(),
        cuts,
        async (lines, trailingNewline, cutAt) => {
          const bytes = Buffer.from(lines.join("\n") + (trailingNewline ? "\n" : ""));
          const options = { maxLineBytes: 32 };
          const refWarnings = new WarningLog();
          const refResult = { skipped: 0 };
          const ref = await collect(readJsonLines(chunked(bytes, cutAt), refWarnings, refResult, options));

          const warnings = new WarningLog();
          const result = { skipped: 0 };
          const parser = new JsonLineParser(warnings, result);
          const got: Array<{ lineNo: number; value: unknown }> = [];
          for await (const batch of readLineBatches(chunked(bytes, cutAt), parser.report, options))
            for (const { lineNo, text } of batch) {
              const value = parser.parse(lineNo, text);
              if (value === PARSE_FAILED) continue;
              expect(parser.text).toBe(text.trim());
              got.push({ lineNo, value });
            }
          parser.finish();
          expect(got).toEqual(ref);
          expect(result).toEqual(refResult);
          expect(warnings.toList()).toEqual(refWarnings.toList());
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("utf8Text", () => {
  const text = fc.string({
    unit: fc.constantFrom("a", "é", "\n", "\r", "🙂", "中", "{", '"'),
    maxLength: 60,
  });

  it("decodes UTF-16 with a BOM to UTF-8, whatever the chunking", async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.boolean(), cuts, async (s, bigEndian, cutAt) => {
        const le = Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from(s, "utf16le")]);
        const bytes = bigEndian ? Buffer.from(le).swap16() : le;
        const got = Buffer.concat(await collect(utf8Text(chunked(bytes, cutAt))));
        expect(got.toString("utf8")).toBe(s);
      }),
      { numRuns: 300 },
    );
  });

  it("passes UTF-8 through unchanged, a leading BOM dropped", async () => {
    await fc.assert(
      fc.asyncProperty(text, fc.boolean(), cuts, async (s, bom, cutAt) => {
        const bytes = Buffer.from((bom ? "\ufeff" : "") + s);
        const got = Buffer.concat(await collect(utf8Text(chunked(bytes, cutAt))));
        expect(got.equals(Buffer.from(s))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("readJsonArrayElements", () => {
  it("yields every element of any array, whatever the whitespace and chunking", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 12 }),
        fc.constantFrom("", " ", "\n", "\r\n  "),
        cuts,
        async (values, ws, cutAt) => {
          const text = `${ws}[${ws}${values.map((v) => JSON.stringify(v)).join(`${ws},${ws}`)}${ws}]${ws}`;
          const result = { truncated: false };
          const got = await collect(readJsonArrayElements(chunked(Buffer.from(text), cutAt), result));
          expect(got.map((g) => JSON.parse(g.text!))).toEqual(
            values.map((v) => JSON.parse(JSON.stringify(v))),
          );
          expect(result.truncated).toBe(false);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("never throws on a truncated array; reports it and keeps the complete elements", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 })), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        cuts,
        async (values, cutFrac, cutAt) => {
          const full = "[" + values.map((v) => JSON.stringify(v)).join(",") + "]";
          const cut = Buffer.from(full).subarray(0, Math.max(1, Math.floor(cutFrac * (full.length - 1))));
          const result = { truncated: false };
          const got = await collect(readJsonArrayElements(chunked(cut, cutAt), result));
          expect(result.truncated).toBe(true);
          expect(got.length).toBeLessThanOrEqual(values.length);
          got.forEach((g, i) => expect(JSON.parse(g.text!)).toEqual(JSON.parse(JSON.stringify(values[i]))));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("no throw escapes", () => {
  it("parseJsonText: any string; round-trips what JSON.stringify writes", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        parseJsonText(s);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(parseJsonText(JSON.stringify(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
      { numRuns: 500 },
    );
    expect(parseJsonText('{"a": NaN, "b": [Infinity, -Infinity]}')).toEqual({ a: null, b: [null, null] });
    expect(parseJsonText('{"a": "NaN"}')).toEqual({ a: "NaN" });
    expect(parseJsonText("{")).toBe(PARSE_FAILED);
  });

  it("detectKind: any bytes, any JSON", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 2000 }).map((a) => Buffer.from(a)),
          fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v))),
          fc
            .array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 })
            .map((vs) => Buffer.from(vs.map((v) => JSON.stringify(v)).join("\n"))),
          fc.string({ maxLength: 500 }).map((s) => Buffer.from(s)),
        ),
        fc.boolean(),
        (buf, complete) => {
          const d = detectKind(buf, complete);
          expect(typeof d.kind).toBe("string");
        },
      ),
      { numRuns: 2000 },
    );
  });
});
