/**
 * The order endpoints and workers are listed in (docs/metrics.md §Endpoint order): natural, so
 * `worker-2` comes before `worker-10` and `10.0.0.2:8000` before `10.0.0.10:8000`. A leaf both
 * the server (stored payloads) and the browser (chart rows) use, so the two agree.
 *
 * Written out rather than `Intl.Collator`: a collator's order of punctuation depends on the ICU
 * data of the runtime, and a stored payload's order must not depend on which Node built it.
 */

const RUNS = /\d+|\D+/g;

function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, "");
  const y = b.replace(/^0+(?=\d)/, "");
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Digit runs compare as numbers (of any length), other runs by code point; ties by the whole text. */
export function compareEndpointNames(a: string, b: string): number {
  const ra = a.match(RUNS) ?? [];
  const rb = b.match(RUNS) ?? [];
  for (let i = 0; i < Math.min(ra.length, rb.length); i++) {
    const [x, y] = [ra[i], rb[i]];
    const digits = /^\d/.test(x) && /^\d/.test(y);
    const c = digits ? compareDigits(x, y) : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return c;
  }
  if (ra.length !== rb.length) return ra.length - rb.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
