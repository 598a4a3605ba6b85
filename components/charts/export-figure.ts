import { bodyFontFamilies, embeddedFontCss } from "./export-font";

/** What a figure says around the plot: the chart's title, the run it is from, a legend. */
export interface FigureText {
  title: string;
  /** The run (or runs) the chart is from. */
  subtitle?: string;
  /** The chart's one-line description: what it shows, in which unit. */
  description?: string;
  /** A swatch per series; `dot` for a row of marks (runs judged regressed), drawn as on the page */
  legend: Array<{ label: string; color: string; shape?: "dot" }>;
}

export interface Figure {
  svg: string;
  /** CSS pixels; the PNG is twice this. */
  width: number;
  height: number;
}

const PAD = 16;
const GAP = 8;
const TITLE = { size: 16, line: 22, weight: 600 };
const SUBTITLE = { size: 12, line: 17, weight: 500 };
const NOTE = { size: 11, line: 15, weight: 400 };
const LEGEND = { size: 11, line: 18, swatch: 10, gap: 5, spacing: 16 };

/**
 * A chart as a figure one can paste into a slide: title, run name, description, the plot with
 * its axis titles, and a legend (the plot's own legend is HTML beside the SVG, so it is redrawn
 * here from the series), on the theme's background in the app's font. Tick labels that overflow
 * the plot's box (the right-most one) get room instead of being cut.
 */
export async function chartFigure(plot: SVGSVGElement, text: FigureText): Promise<Figure> {
  await document.fonts.ready;
  const [fontCss, families] = [await embeddedFontCss(), bodyFontFamilies()];
  const family = families.map((f) => (/\s/.test(f) ? `'${f}'` : f)).join(", ");
  const colour = themeColours();
  const box = plot.getBoundingClientRect();
  const ink = plot.getBBox();
  const over = {
    left: Math.ceil(Math.max(0, -ink.x)),
    top: Math.ceil(Math.max(0, -ink.y)),
    right: Math.ceil(Math.max(0, ink.x + ink.width - box.width)),
    bottom: Math.ceil(Math.max(0, ink.y + ink.height - box.height)),
  };
  // The page's legend is HTML drawn over room left at the bottom of the SVG; the figure has its
  // own legend, so that empty band is cut.
  const plotHeight = ink.height > 0 ? Math.min(box.height, Math.ceil(ink.y + ink.height)) : box.height;
  const width = Math.ceil(PAD * 2 + over.left + box.width + over.right);
  const inner = width - PAD * 2;
  const measure = measurer(family);
  const parts: string[] = [];
  let y = PAD;
  const lines = (s: string | undefined, t: typeof TITLE, fill: string) => {
    for (const line of s ? wrap(s, inner, (w) => measure(w, t)) : []) {
      parts.push(textAt(PAD, y + t.size, line, t, fill));
      y += t.line;
    }
  };
  lines(text.title, TITLE, colour.fg);
  lines(text.subtitle, SUBTITLE, colour.fg);
  lines(text.description, NOTE, colour.muted);
  y += GAP;
  const chartTop = y;
  parts.push(plotSvg(plot, PAD + over.left, y + over.top, box.width, plotHeight));
  y += over.top + plotHeight + over.bottom;
  const legendTop = y + GAP;
  const legend = legendRows(text.legend, inner, (w) => measure(w, LEGEND));
  legend.forEach((row, r) => {
    const ly = legendTop + r * LEGEND.line;
    for (const item of row) {
      const sy = ly + (LEGEND.line - LEGEND.swatch) / 2;
      const half = LEGEND.swatch / 2;
      parts.push(
        item.shape === "dot"
          ? `<circle cx="${PAD + item.x + half}" cy="${sy + half}" r="${half}" fill="${esc(item.color)}"/>`
          : `<rect x="${PAD + item.x}" y="${sy}" width="${LEGEND.swatch}" height="${LEGEND.swatch}" rx="2" fill="${esc(item.color)}"/>`,
        textAt(
          PAD + item.x + LEGEND.swatch + LEGEND.gap,
          ly + LEGEND.line - 5,
          item.label,
          LEGEND,
          colour.fg,
        ),
      );
    }
  });
  y = legend.length ? legendTop + legend.length * LEGEND.line : y;
  const height = Math.ceil(y + PAD);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"` +
    ` font-family="${esc(family)}" data-chart-top="${chartTop}" data-legend-top="${legend.length ? legendTop : height}">` +
    `<style>${fontCss}</style><rect width="100%" height="100%" fill="${esc(colour.bg)}"/>` +
    `<title>${esc(text.title)}</title>${parts.join("")}</svg>`;
  return { svg, width, height };
}

/** Paints a figure at twice its size (2× pixel density) and returns the PNG. */
export async function figurePng(figure: Figure): Promise<Blob> {
  const img = new Image();
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(figure.svg)}`;
  await img.decode();
  const scale = 2;
  const canvas = document.createElement("canvas");
  canvas.width = figure.width * scale;
  canvas.height = figure.height * scale;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no 2D canvas to paint the chart on");
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, "image/png"));
  if (!blob) throw new Error("the chart could not be encoded as PNG");
  return blob;
}

/** Background, text and muted text of the current theme, as computed colours. */
function themeColours() {
  const root = getComputedStyle(document.documentElement);
  const body = getComputedStyle(document.body);
  return {
    bg: root.getPropertyValue("--card").trim() || body.backgroundColor,
    fg: body.color,
    muted: root.getPropertyValue("--muted").trim() || body.color,
  };
}

/** A series colour as the figure needs it: `var(--x)` resolved against the current theme. */
export function resolveColour(c: string): string {
  const m = /^var\((--[\w-]+)(?:,\s*(.+))?\)$/.exec(c.trim());
  if (!m) return c;
  return getComputedStyle(document.documentElement).getPropertyValue(m[1]).trim() || m[2] || c;
}

function plotSvg(plot: SVGSVGElement, x: number, y: number, w: number, h: number): string {
  const clone = plot.cloneNode(true) as SVGSVGElement;
  inlineStyles(plot, clone);
  canvasLayersAsImages(plot, clone);
  clone.removeAttribute("class");
  clone.removeAttribute("style");
  clone.setAttribute("x", String(x));
  clone.setAttribute("y", String(y));
  clone.setAttribute("width", String(w));
  clone.setAttribute("height", String(h));
  clone.setAttribute("viewBox", `0 0 ${w} ${h}`);
  clone.setAttribute("overflow", "visible");
  return new XMLSerializer()
    .serializeToString(clone)
    .replace(/ xmlns="http:\/\/www\.w3\.org\/2000\/svg"/, "");
}

/**
 * A dense chart's marks are painted on a canvas inside a foreignObject, which a serialised SVG
 * carries empty: each such layer becomes an image of what its canvas holds.
 */
function canvasLayersAsImages(plot: SVGSVGElement, clone: SVGSVGElement): void {
  const from = plot.querySelectorAll("foreignObject");
  const to = clone.querySelectorAll("foreignObject");
  from.forEach((layer, i) => {
    const canvas = layer.querySelector("canvas");
    const target = to[i];
    if (!canvas || !target) return;
    const image = document.createElementNS("http://www.w3.org/2000/svg", "image");
    for (const a of ["x", "y", "width", "height"]) image.setAttribute(a, layer.getAttribute(a) ?? "0");
    image.setAttribute("href", canvas.toDataURL("image/png"));
    target.replaceWith(image);
  });
}

const STYLE_PROPS = [
  "fill",
  "stroke",
  "stroke-width",
  "stroke-dasharray",
  "opacity",
  "fill-opacity",
  "stroke-opacity",
  "font-size",
  "font-weight",
  "text-anchor",
  "dominant-baseline",
];

// Computed colours inlined: the stylesheet and its CSS variables do not travel with the SVG. The
// font family is left to the figure's own, the embedded app font.
function inlineStyles(source: Element, target: Element): void {
  const cs = getComputedStyle(source);
  target.setAttribute("style", STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(";"));
  for (let i = 0; i < source.children.length; i++) inlineStyles(source.children[i], target.children[i]);
}

function measurer(family: string) {
  const ctx = document.createElement("canvas").getContext("2d");
  return (s: string, t: { size: number; weight?: number }) => {
    if (!ctx) return s.length * t.size * 0.6;
    ctx.font = `${t.weight ?? 400} ${t.size}px ${family}`;
    return ctx.measureText(s).width;
  };
}

/** Greedy word wrap to a width. */
export function wrap(s: string, width: number, measure: (s: string) => number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of s.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && measure(next) > width) {
      out.push(line);
      line = word;
    } else line = next;
  }
  if (line) out.push(line);
  return out;
}

type Placed = FigureText["legend"][number] & { x: number };

function legendRows(items: FigureText["legend"], width: number, measure: (s: string) => number): Placed[][] {
  const rows: Placed[][] = [];
  let row: Placed[] = [];
  let x = 0;
  for (const item of items) {
    const w = LEGEND.swatch + LEGEND.gap + measure(item.label);
    if (row.length && x + w > width) {
      rows.push(row);
      row = [];
      x = 0;
    }
    row.push({ ...item, x });
    x += w + LEGEND.spacing;
  }
  if (row.length) rows.push(row);
  return rows;
}

function textAt(x: number, y: number, s: string, t: { size: number; weight?: number }, fill: string) {
  return `<text x="${x}" y="${y}" font-size="${t.size}" font-weight="${t.weight ?? 400}" fill="${esc(fill)}">${esc(s)}</text>`;
}

const esc = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
