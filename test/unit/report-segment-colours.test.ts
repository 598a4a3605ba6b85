/**
 * The report's segment colours are the app's light theme (app/globals.css `:root`), so a segment
 * looks the same in both; the report is a light page.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SEGMENT_HEX } from "@/lib/runs/report/segment-colours";
import { cssVariables } from "../helpers/colour-vision";

describe("report segment colours", () => {
  it("match every --seg-* variable of the app's light theme", () => {
    const css = fs.readFileSync(path.join(__dirname, "../../app/globals.css"), "utf8");
    const vars = Object.fromEntries(
      Object.entries(cssVariables(css, ":root"))
        .filter(([k]) => k.startsWith("--seg-"))
        .map(([k, v]) => [k.slice(6).replace(/-/g, "_"), v.toLowerCase()]),
    );
    expect(SEGMENT_HEX).toEqual(vars);
  });
});
