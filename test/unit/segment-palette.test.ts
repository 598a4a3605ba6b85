import { describe, expect, it } from "vitest";
import { DISAGGREGATED_SEGMENTS } from "@/lib/metrics/time-breakdown";
import {
  contrastRatio,
  cssVariables,
  DEUTERANOPIA,
  deltaE2000,
  hexToRgb,
  PROTANOPIA,
  rgbToLab,
  simulate,
  type Rgb,
} from "../helpers/colour-vision";
import { builtGlobalsCss } from "../helpers/built-css";

const css = await builtGlobalsCss();
const light = cssVariables(css, ":root");
const dark = { ...light, ...cssVariables(css, ':root[data-theme="dark"]') };

/** Below this CIEDE2000 two small fills next to each other are easy to mistake (2.3 is a just-noticeable difference). */
const MIN_DELTA_E = 10;

const VISIONS: Array<[string, (c: Rgb) => Rgb]> = [
  ["normal", (c) => c],
  ["protanopia", (c) => simulate(c, PROTANOPIA)],
  ["deuteranopia", (c) => simulate(c, DEUTERANOPIA)],
];

const THEMES = [
  ["light", light],
  ["dark", dark],
] as const;
const segmentOf = (vars: Record<string, string>, name: string) =>
  hexToRgb(vars[`--seg-${name.replace(/_/g, "-")}`]);
const NAMES = DISAGGREGATED_SEGMENTS.map((s) => s.name);

/** WCAG 2.1 SC 1.4.11: a graphical object someone must see (a bar, a band) needs 3:1 against what is next to it. */
const MIN_FILL_CONTRAST = 3;

describe("colour math, pinned against published values", () => {
  it("CIEDE2000 matches Sharma, Wu & Dalal (2005) test pairs", () => {
    expect(deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(deltaE2000([50, -1.3802, -84.2814], [50, 0, -82.7485])).toBeCloseTo(1.0, 4);
    expect(deltaE2000([50, 2.5, 0], [73, 25, -18])).toBeCloseTo(27.1492, 4);
    expect(deltaE2000([2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514])).toBeCloseTo(0.9082, 4);
  });

  it("sRGB to CIELAB (D65) gives the textbook white and red", () => {
    const [L, a, b] = rgbToLab([255, 0, 0]);
    expect([L, a, b].map((v) => Number(v.toFixed(2)))).toEqual([53.24, 80.09, 67.2]);
    expect(rgbToLab([255, 255, 255])[0]).toBeCloseTo(100, 3);
  });

  it("Machado protanopia maps pure red to a dark olive and leaves white white", () => {
    // Linear (1,0,0) × first column (0.152286, 0.114503, −0.003882) → sRGB (109, 95, 0), by hand.
    expect(simulate([255, 0, 0], PROTANOPIA)).toEqual([109, 95, 0]);
    expect(simulate([255, 255, 255], DEUTERANOPIA)).toEqual([255, 255, 255]);
  });

  it("WCAG contrast: black on white is 21:1, #777 on white just under 4.5:1", () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 6);
    expect(contrastRatio(hexToRgb("#777777"), [255, 255, 255])).toBeCloseTo(4.48, 2);
  });
});

describe("segment palette (app/globals.css)", () => {
  it("has one colour for every segment of both serving modes", () => {
    for (const name of [...NAMES, "decode"]) expect(light[`--seg-${name.replace(/_/g, "-")}`]).toMatch(/^#/);
  });

  for (const [theme, vars] of THEMES)
    for (const [vision, see] of VISIONS) {
      it(`${theme}: keeps every pair of segments apart under ${vision} (CIEDE2000 ≥ ${MIN_DELTA_E})`, () => {
        const close: string[] = [];
        let min = Infinity;
        for (let i = 0; i < NAMES.length; i++)
          for (let j = i + 1; j < NAMES.length; j++) {
            const d = deltaE2000(
              rgbToLab(see(segmentOf(vars, NAMES[i]))),
              rgbToLab(see(segmentOf(vars, NAMES[j]))),
            );
            min = Math.min(min, d);
            if (d < MIN_DELTA_E) close.push(`${NAMES[i]} ~ ${NAMES[j]}: ${d.toFixed(1)}`);
          }
        expect(close).toEqual([]);
        expect(min).toBeGreaterThanOrEqual(MIN_DELTA_E);
      });
    }

  for (const [theme, vars] of THEMES)
    it(`${theme}: every segment fill reaches ${MIN_FILL_CONTRAST}:1 against the card it is drawn on`, () => {
      const faint = [...NAMES, "decode"]
        .map((n) => [n, contrastRatio(segmentOf(vars, n), hexToRgb(vars["--card"]))] as const)
        .filter(([, c]) => c < MIN_FILL_CONTRAST)
        .map(([n, c]) => `${n} ${c.toFixed(2)}:1`);
      expect(faint).toEqual([]);
    });

  it("has a palette per theme: the dark theme sets its own fills", () => {
    const own = [...NAMES, "decode"].filter(
      (n) => cssVariables(css, ':root[data-theme="dark"]')[`--seg-${n.replace(/_/g, "-")}`],
    );
    expect(own.length).toBeGreaterThan(0);
    // Prefill, the biggest TTFT segment, was 1.46:1 on the dark card with the light theme's fill.
    expect(contrastRatio(segmentOf(dark, "ctx_processing"), hexToRgb(dark["--card"]))).toBeGreaterThanOrEqual(
      3,
    );
  });

  it("tells the two queues apart by hue, not only by shade", () => {
    for (const [, vars] of THEMES)
      for (const [, see] of VISIONS) {
        const d = deltaE2000(
          rgbToLab(see(segmentOf(vars, "ctx_queue"))),
          rgbToLab(see(segmentOf(vars, "gen_queue_wait"))),
        );
        expect(d).toBeGreaterThan(20);
      }
  });
});

describe("text contrast of the theme tokens (WCAG AA, 4.5:1)", () => {
  for (const [theme, vars] of [
    ["light", light],
    ["dark", dark],
  ] as const) {
    for (const text of ["--fg", "--muted", "--accent", "--danger", "--warn", "--ok"])
      for (const ground of ["--card", "--bg"])
        it(`${theme}: ${text} on ${ground}`, () => {
          expect(contrastRatio(hexToRgb(vars[text]), hexToRgb(vars[ground]))).toBeGreaterThanOrEqual(4.5);
        });
    it(`${theme}: button text on the accent`, () => {
      expect(contrastRatio(hexToRgb(vars["--accent-fg"]), hexToRgb(vars["--accent"]))).toBeGreaterThanOrEqual(
        4.5,
      );
    });
  }
});
