/** Display formatting shared by tables and tooltips. Null means "not recorded" and shows as such. */
export const NOT_RECORDED = "not recorded";
/** A server metric whose series the run's exports do not carry (never shown as 0). */
export const NOT_EXPORTED = "not exported";

const formats = new Map<string, Intl.NumberFormat>();

/**
 * `n.toLocaleString("en-US", options)`, with the formatter made once per options: each
 * `toLocaleString` builds one, and a report of a large run formatted enough numbers for that to
 * take seconds.
 */
function en(n: number, options?: Intl.NumberFormatOptions): string {
  const key = options ? JSON.stringify(options) : "";
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.NumberFormat("en-US", options)));
  return f.format(n);
}

/**
 * Loads the ICU data the server's answers format with, before the first request does: the first
 * `Intl.NumberFormat` of a process takes 20 ms on a quiet host and took 435 ms at load 35–47 (a
 * trace export's header was the first to format a count, held the server meanwhile), the first
 * collator as much again. Afterwards a formatter costs a fraction of a ms, and this module's own
 * are made once per options (`en`). The server calls it when it starts (instrumentation.ts).
 */
export function warmIntl(): void {
  en(0);
  en(0.5, { maximumFractionDigits: 2 });
  // `toLocaleString("en-US")` without options keeps V8's own formatter, made at its first call.
  (0).toLocaleString("en-US");
  new Intl.Collator("en", { numeric: true }).compare("a1", "a2");
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  return en(Math.round(n));
}

/**
 * Never scientific notation (people misread `1.5e-3`): large numbers get thousands separators,
 * numbers too small for `digits` decimals keep three significant digits (0.000153).
 */
export function formatNumber(n: number | null | undefined, digits = 2): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  const abs = Math.abs(n);
  if (abs !== 0 && abs < 10 ** -digits) return en(n, { maximumSignificantDigits: 3 });
  return en(n, { maximumFractionDigits: digits });
}

/**
 * The decimals a throughput figure is written with on every page (docs/metrics.md §Readable
 * numbers, "One figure, one way"): tokens per second, per GPU or per user, 2 (194.51 tok/s on the
 * Overview tile, the Latency header, the sweep table and Compare); requests per second, per GPU
 * too, 3 (0.973 requests/s). Null for a unit without such a rule (durations, rates and bytes
 * write themselves).
 */
export function figureDigits(unit: string): number | null {
  const u = unit.trim();
  if (/^(output |total )?tok(ens)?\/s(\/|$)/.test(u)) return 2;
  if (/^req(uests)?\/s(\/|$)/.test(u)) return 3;
  return null;
}

/**
 * A throughput figure at exactly its unit's decimals (`figureDigits`: "194.50 tok/s", "0.500
 * requests/s", so figures said together never read "194.5" beside "194.51"); a unit without such
 * a rule at up to `digits`. No unit appended.
 */
export function formatFigure(n: number | null | undefined, unit: string, digits = 2): string {
  const own = figureDigits(unit);
  return own === null ? formatNumber(n, digits) : formatFixed(n, own);
}

/**
 * Exactly `digits` decimals, with thousands separators: one precision for a column of figures
 * ("0.000 s … 3.786 s", not "0.000398 s" above "3.786 s"). A value too small for them reads 0.
 */
export function formatFixed(n: number | null | undefined, digits: number): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  const v = en(n, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  // "-0.000" for a tiny negative is still zero.
  return /^-0[.,]?0*$/.test(v) ? v.slice(1) : v;
}

/**
 * A duration: ms below 10 s (three decimals below 10 ms), else seconds. A negative one (a loss, a
 * clock offset) takes the typographic minus like the other signed figures ("−0.687 ms"); one that
 * rounds to zero reads 0.
 */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return NOT_RECORDED;
  const abs = Math.abs(ms);
  const text =
    abs >= 10_000
      ? `${en(abs / 1000, { maximumFractionDigits: 2 })} s`
      : `${en(abs, { maximumFractionDigits: abs < 10 ? 3 : 1 })} ms`;
  return ms < 0 && !/^0 /.test(text) ? `−${text}` : text;
}

export function formatRate(r: number | null | undefined): string {
  if (r === null || r === undefined || !Number.isFinite(r)) return "—";
  return `${en(r * 100, { maximumFractionDigits: 1 })}%`;
}

/** A difference of two rates, already in percentage points: "−8.2 pp", "+1 pp", "±0 pp". */
export function formatPoints(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return "—";
  const sign = p > 0 ? "+" : p < 0 ? "−" : "±";
  return `${sign}${en(Math.abs(p), { maximumFractionDigits: 1 })} pp`;
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
  return `${en(v, { maximumFractionDigits: i === 0 ? 0 : 2 })} ${units[i]}`;
}

export function formatBytesPerSecond(b: number | null | undefined): string {
  return b === null || b === undefined || !Number.isFinite(b) ? "—" : `${formatBytes(b)}/s`;
}

/**
 * One unit for a table column or axis of byte counts, from its largest value: the largest unit in
 * which that value is at least 1 (10 MB beside 5 MB in MB, never "0.01 GB" beside "0.005 GB").
 */
export function byteUnit(max: number): { unit: string; divisor: number } {
  const units = ["B", "KB", "MB", "GB", "TB"];
  let i = 0;
  while (i < units.length - 1 && Math.abs(max) >= 1000 ** (i + 1)) i++;
  return { unit: units[i], divisor: 1000 ** i };
}

/**
 * One unit for an axis of byte rates, from its largest value: the largest unit in which that
 * value is at least 1 (a 9.5 GB/s axis in GB/s, one whose largest bar is 5 MB/s in MB/s, not
 * "0.005 GB/s").
 */
export function byteRateUnit(max: number): { unit: string; divisor: number } {
  const { unit, divisor } = byteUnit(max);
  return { unit: `${unit}/s`, divisor };
}

/**
 * Byte counts (or rates) in one unit for all of them, from the largest (`byteUnit`): the unit and
 * a writer of each value in it, without the unit (cells under a header that names it).
 */
export function bytesIn(values: ReadonlyArray<number | null | undefined>): {
  unit: string;
  value: (b: number | null | undefined) => string;
} {
  let max = 0;
  for (const v of values) if (typeof v === "number" && Number.isFinite(v)) max = Math.max(max, Math.abs(v));
  const { unit, divisor } = byteUnit(max);
  return {
    unit,
    value: (b) => (b === null || b === undefined || !Number.isFinite(b) ? "—" : formatNumber(b / divisor, 3)),
  };
}

export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return d.toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/**
 * A count and its noun, singular for exactly one: "1 request", "2,000 requests". `many` for
 * nouns whose plural is not the noun plus "s" ("1 GPU" is regular; "1 entry" / "2 entries" is not).
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${Math.round(n) === 1 ? one : many}`;
}

/**
 * A message's "n thing(s)" in proper English: "1 request(s)" → "1 request", "3 worker record(s)"
 * → "3 worker records", and "(s)" after no number → the plural. For warnings written (and stored
 * with runs) before every writer used `plural`.
 */
export function properPlurals(text: string): string {
  return text
    .replace(/(\d[\d,.]*)((?:\s+[A-Za-z][\w-]*){1,3}?)\(s\)/g, (_, n: string, words: string) =>
      Number(n.replace(/,/g, "")) === 1 ? `${n}${words}` : `${n}${words}s`,
    )
    .replace(/([A-Za-z])\(s\)/g, "$1s");
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 1,002nd. */
export function ordinal(n: number): string {
  const i = Math.round(n);
  const tens = Math.abs(i) % 100;
  const last = Math.abs(i) % 10;
  const suffix =
    tens >= 11 && tens <= 13 ? "th" : last === 1 ? "st" : last === 2 ? "nd" : last === 3 ? "rd" : "th";
  return `${formatCount(i)}${suffix}`;
}

/** A time unit for a whole table, row or axis: seconds once the largest value reaches 10 s. */
export interface TimeUnit {
  unit: "ms" | "s";
  /**
   * The decimals every value is written with, chosen for the whole set: 2 in s, 3 in ms below
   * 10 ms, else 1 (one column, one precision: "0.8 ms" above "2.0 ms", never "2 ms")
   */
  digits: number;
  /** A value in ms, written in the unit with the unit after it. */
  format: (ms: number | null | undefined) => string;
  /** A value in ms, written in the unit without it (cells under a header that names the unit). */
  value: (ms: number | null | undefined) => string;
}

/**
 * Durations said side by side, as a tile's "p50 / p99": one unit (timeUnitFor) and one number of
 * decimals for all of them, so "3,720.0 ms / 3,940.6 ms", never "3,720 ms / 3,940.6 ms" (a
 * trailing zero dropped from one figure only) nor "6,478.6 ms / 18.63 s". The decimals are the
 * unit's: 2 in s, 3 in ms below 10 ms, else 1. Not recorded reads NOT_RECORDED.
 */
export function formatMsAlike(valuesMs: ReadonlyArray<number | null | undefined>): string[] {
  const { unit, digits } = timeUnitFor(valuesMs);
  return valuesMs.map((ms) =>
    ms === null || ms === undefined || !Number.isFinite(ms)
      ? NOT_RECORDED
      : `${formatFixed(unit === "s" ? ms / 1000 : ms, digits)} ${unit}`,
  );
}

/**
 * Rates said side by side, as a tile's "avg / max": one number of decimals for both ("45.0% /
 * 80.3%", never "45% / 80.3%"); not recorded reads "—", as formatRate writes it.
 */
export function formatRatesAlike(rates: ReadonlyArray<number | null | undefined>): string[] {
  return rates.map((r) =>
    r === null || r === undefined || !Number.isFinite(r) ? "—" : `${formatFixed(r * 100, 1)}%`,
  );
}

/**
 * One unit and one precision for a set of durations, so a table never reads "6,726.7 ms … 12.05
 * s" nor "0.8 ms" above "2 ms": ms below 10,000 ms (formatMs's own switch point), s from there,
 * chosen by the largest value, and every value at exactly the unit's decimals (formatFixed).
 */
export function timeUnitFor(valuesMs: ReadonlyArray<number | null | undefined>): TimeUnit {
  let max = 0;
  for (const v of valuesMs) if (typeof v === "number" && Number.isFinite(v)) max = Math.max(max, Math.abs(v));
  const seconds = max >= 10_000;
  const digits = seconds ? 2 : max < 10 ? 3 : 1;
  const value = (ms: number | null | undefined) => {
    if (ms === null || ms === undefined || !Number.isFinite(ms)) return NOT_RECORDED;
    return formatFixed(seconds ? ms / 1000 : ms, digits);
  };
  const unit = seconds ? "s" : "ms";
  return {
    unit,
    digits,
    value,
    format: (ms) =>
      ms === null || ms === undefined || !Number.isFinite(ms) ? NOT_RECORDED : `${value(ms)} ${unit}`,
  };
}
