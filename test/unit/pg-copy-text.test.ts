/**
 * COPY's text format (PostgreSQL docs, "COPY: File Formats, Text Format"): fields split by tab,
 * rows by newline, `\N` is NULL, and backslash, newline, carriage return and tab inside a value
 * are backslash escapes. A string `\N` must stay text, not turn into NULL.
 */
import { describe, expect, it } from "vitest";
import { copyField, copyText } from "@/lib/store/pg-copy";

describe("COPY text fields", () => {
  it.each([
    [null, "\\N"],
    [undefined, "\\N"],
    ["\\N", "\\\\N"],
    ["NULL", "NULL"],
    ["", ""],
    ["tab\tnew\nline\rend", "tab\\tnew\\nline\\rend"],
    ["back\\slash", "back\\\\slash"],
    ["ünïcødé ✓", "ünïcødé ✓"],
    [1.5, "1.5"],
    [0.1, "0.1"],
    [2 ** 40, "1099511627776"],
    [1.762551940061e12, "1762551940061"],
    [Number.NaN, "NaN"],
    [Infinity, "Infinity"],
    [-Infinity, "-Infinity"],
    [true, "t"],
    [false, "f"],
    [12345678901234567890n, "12345678901234567890"],
    [Buffer.from([0, 255, 16]), "\\\\x00ff10"],
  ])("value %# is written %s", (v, text) => {
    expect(copyField(v)).toBe(text);
  });

  it("writes one line per row, fields in column order", () => {
    expect(copyText(["a", "b"], [1, null, "x\ty", 2])).toBe("1\t\\N\nx\\ty\t2\n");
    expect(copyText(["a"], [])).toBe("");
  });
});
