import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitCsvRecord, splitCsvRow } from "@/lib/formats/csv";

/** Python's csv writer with minimal quoting: quote a field only when it needs it. */
const writeField = (f: string) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);

describe("CSV splitter", () => {
  it("reads quoted commas, doubled quotes and empty fields", () => {
    expect(splitCsvRow('a,"b, ""c""",d')).toEqual(["a", 'b, "c"', "d"]);
    expect(splitCsvRow(",,")).toEqual(["", "", ""]);
    expect(splitCsvRow("")).toEqual([""]);
    expect(splitCsvRow('x"y"z')).toEqual(["xyz"]);
  });

  it("a row keeps an unclosed quote to its end; a record waits for more lines", () => {
    expect(splitCsvRow('a,"open, still')).toEqual(["a", "open, still"]);
    expect(splitCsvRecord('a,"open, still')).toBeNull();
    expect(splitCsvRecord('a,"two\nlines",b')).toEqual(["a", "two\nlines", "b"]);
  });

  it("reads back whatever a minimal-quoting writer wrote", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom("a", ",", '"', "\n", " ", "é") })), (fields) => {
        fc.pre(fields.length > 0);
        const line = fields.map(writeField).join(",");
        expect(splitCsvRecord(line)).toEqual(fields);
        expect(splitCsvRow(line)).toEqual(fields);
      }),
      { numRuns: 500 },
    );
  });
});
