import { beforeAll, describe, expect, it } from "vitest";
import { builtGlobalsCss } from "../helpers/built-css";
import { cssVariables } from "../helpers/colour-vision";

// The stylesheet as built: its dark theme is written once, and the build puts it under both selectors.
let css = "";
beforeAll(async () => {
  css = await builtGlobalsCss();
});

/** The declarations of the first rule `selector` opens, `color-scheme` included. */
function declarations(selector: string): Record<string, string> {
  const at = css.indexOf(`${selector} {`);
  if (at < 0) throw new Error(`no rule ${selector}`);
  const body = css.slice(css.indexOf("{", at) + 1, css.indexOf("}", at));
  const scheme = /color-scheme\s*:\s*([^;]+);/.exec(body)?.[1].trim();
  return { ...cssVariables(css, selector), "color-scheme": scheme ?? "" };
}

describe("the theme without JavaScript", () => {
  it("a dark system preference gets the dark theme's every token, only while no script set data-theme", () => {
    const dark = declarations(':root[data-theme="dark"]');
    const fallback = declarations(":root:not([data-theme])");
    expect(Object.keys(dark).length).toBeGreaterThan(30);
    expect(fallback).toEqual(dark);
    expect(fallback["color-scheme"]).toBe("dark");
    // The fallback sits in the dark-preference media query, so a light system keeps :root's tokens.
    const media = css.lastIndexOf(
      "@media (prefers-color-scheme: dark)",
      css.indexOf(":root:not([data-theme]) {"),
    );
    expect(media).toBeGreaterThan(-1);
    expect(css.slice(media, css.indexOf(":root:not([data-theme]) {"))).toMatch(
      /^@media \(prefers-color-scheme: dark\) \{\s*$/,
    );
  });
});
