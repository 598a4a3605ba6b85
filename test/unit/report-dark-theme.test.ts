/**
 * The offline report has a dark theme as the page does (issue 29): a reader whose system prefers
 * dark gets a dark page, and every colour the report's SVGs are written with takes its dark
 * value; each time-breakdown segment's fill at 3:1 or more against the dark page (WCAG 1.4.11).
 */
import { describe, expect, it } from "vitest";
import { segmentToken, tokenColour } from "@/lib/api/figure";
import { DISAGGREGATED_SEGMENTS } from "@/lib/metrics/time-breakdown";
import { REPORT_DARK_BG, renderReport, reportDarkColours } from "@/lib/runs/report/html";
import { contrastRatio, hexToRgb } from "../helpers/colour-vision";

const html = renderReport({ title: "r", subtitle: "s", sections: [] });
const dark = /@media screen and \(prefers-color-scheme: dark\)\{([\s\S]*?)\n\}\n/.exec(html)?.[1] ?? "";

/** The fill a colour written as `fill="<light>"` has on the dark page, from the report's own rules. */
function darkFill(light: string): string {
  const m = new RegExp(`svg \\[fill="${light}"\\]\\{fill:(#[0-9a-fA-F]{6})\\}`).exec(dark);
  return m ? m[1] : light;
}

describe("the offline report's dark theme", () => {
  it("has one, for a reader whose system prefers dark: a dark page", () => {
    expect(dark).toContain(`background:${REPORT_DARK_BG}`);
    expect(dark).toContain("color-scheme:dark");
  });

  it("every segment's fill reaches 3:1 against the dark page, and against white on the light one", () => {
    const low: string[] = [];
    for (const { name } of DISAGGREGATED_SEGMENTS) {
      const light = tokenColour(segmentToken(name));
      const onDark = contrastRatio(hexToRgb(darkFill(light)), hexToRgb(REPORT_DARK_BG));
      const onLight = contrastRatio(hexToRgb(light), hexToRgb("#ffffff"));
      if (onDark < 3) low.push(`${name} ${darkFill(light)} on dark: ${onDark.toFixed(2)}:1`);
      if (onLight < 3) low.push(`${name} ${light} on white: ${onLight.toFixed(2)}:1`);
    }
    expect(low).toEqual([]);
  });

  it("each light colour has one dark value; the axes' text and the palette's black turn light", () => {
    const seen = new Map<string, string>();
    for (const [light, d] of reportDarkColours()) {
      expect(seen.get(light.toLowerCase()) ?? d, light).toBe(d);
      seen.set(light.toLowerCase(), d);
    }
    expect(contrastRatio(hexToRgb(darkFill("#111827")), hexToRgb(REPORT_DARK_BG))).toBeGreaterThan(4.5);
    expect(contrastRatio(hexToRgb(darkFill("#000000")), hexToRgb(REPORT_DARK_BG))).toBeGreaterThan(3);
  });
});
