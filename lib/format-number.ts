/** Display formatting shared by tables and tooltips. Null means "not recorded" and shows as such. */
export const NOT_RECORDED = "not recorded";
/** A server metric whose series the run's exports do not carry (never shown as 0). */
export const NOT_EXPORTED = "not exported";

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  return Math.round(n).toLocaleString("en-US");
}

/**
 * Never scientific notation (people misread `1.5e-3`): large numbers get thousands separators,
 * numbers too small for `digits` decimals keep three significant digits (0.000153).
 */
export function formatNumber(n: number | null | undefined, digits = 2): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  const abs = Math.abs(n);
  if (abs !== 0 && abs < 10 ** -digits) return n.toLocaleString("en-US", { maximumSignificantDigits: 3 });
  return n.toLocaleString("en-US", { maximumFractionDigits: digits });
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return NOT_RECORDED;
  if (Math.abs(ms) >= 10_000) return `${(ms / 1000).toLocaleString("en-US", { maximumFractionDigits: 2 })} s`;
  return `${ms.toLocaleString("en-US", { maximumFractionDigits: ms < 10 ? 3 : 1 })} ms`;
}

export function formatRate(r: number | null | undefined): string {
  if (r === null || r === undefined || !Number.isFinite(r)) return "—";
  return `${(r * 100).toLocaleString("en-US", { maximumFractionDigits: 1 })}%`;
}

export function formatBytes(b: number | null | undefined): string {
  if (b === null || b === undefined || !Number.isFinite(b)) return "—";
  const units = ["B", "KB", "MB", "GB", "TB"];
  let v = b;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toLocaleString("en-US", { maximumFractionDigits: i === 0 ? 0 : 2 })} ${units[i]}`;
}

export function formatBytesPerSecond(b: number | null | undefined): string {
  return b === null || b === undefined || !Number.isFinite(b) ? "—" : `${formatBytes(b)}/s`;
}

export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return d.toISOString().slice(0, 16).replace("T", " ") + " UTC";
}
