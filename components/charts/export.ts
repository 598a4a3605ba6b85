export type CsvRow = Record<string, string | number | boolean | null | undefined>;

/** RFC 4180 CSV: header from the union of keys, fields quoted when needed. */
export function toCsv(rows: CsvRow[]): string {
  const columns: string[] = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const cell = (v: CsvRow[string]) => {
    if (v === null || v === undefined) return "";
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return (
    [columns.map(cell).join(","), ...rows.map((r) => columns.map((c) => cell(r[c])).join(","))].join("\r\n") +
    "\r\n"
  );
}

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadCsv(rows: CsvRow[], fileName: string): void {
  downloadBlob(new Blob([toCsv(rows)], { type: "text/csv;charset=utf-8" }), fileName);
}

/** Renders a chart's SVG (with computed colours inlined) onto a canvas and saves it as PNG. */
export async function downloadSvgAsPng(svg: SVGSVGElement, fileName: string): Promise<void> {
  const { width, height } = svg.getBoundingClientRect();
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, clone);
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  const xml = new XMLSerializer().serializeToString(clone);
  const img = new Image();
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(xml)}`;
  await new Promise<void>((resolve, reject) => {
    img.onload = () => resolve();
    img.onerror = () => reject(new Error("could not render chart"));
    img.src = src;
  });
  const scale = 2;
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(height * scale);
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.fillStyle = getComputedStyle(document.body).backgroundColor || "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.scale(scale, scale);
  ctx.drawImage(img, 0, 0, width, height);
  // A dense chart's marks are on a canvas layer, which the serialised SVG does not carry.
  const origin = svg.getBoundingClientRect();
  for (const layer of svg.querySelectorAll("canvas")) {
    const r = layer.getBoundingClientRect();
    ctx.drawImage(layer, r.left - origin.left, r.top - origin.top, r.width, r.height);
  }
  const blob = await new Promise<Blob | null>((r) => canvas.toBlob(r, "image/png"));
  if (blob) downloadBlob(blob, fileName);
}

function inlineStyles(source: Element, target: Element): void {
  const cs = getComputedStyle(source);
  const props = [
    "fill",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "opacity",
    "fill-opacity",
    "font-size",
    "font-family",
  ];
  const style = props.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(";");
  target.setAttribute("style", style);
  for (let i = 0; i < source.children.length; i++) inlineStyles(source.children[i], target.children[i]);
}
