/** The report's segment colours are the app's (app/globals.css), so a segment looks the same in both. */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SEGMENT_HEX } from "@/lib/runs/report/segment-colours";

describe("report segment colours", () => {
  it("match every --seg-* variable of the app's stylesheet", () => {
    const css = fs.readFileSync(path.join(__dirname, "../../app/globals.css"), "utf8");
    const vars = Object.fromEntries(
      [...css.matchAll(/--seg-([a-z-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [
        m[1].replace(/-/g, "_"),
        m[2].toLowerCase(),
      ]),
    );
    expect(SEGMENT_HEX).toEqual(vars);
  });
});
