/**
 * numpy.percentile's default (linear between the closest ranks), written apart from lib/ so a
 * test's expected figure does not come from the code it checks.
 */
export function pct(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const h = ((s.length - 1) * q) / 100;
  const lo = Math.floor(h);
  return s[lo] + (h - lo) * ((s[Math.min(lo + 1, s.length - 1)] ?? s[lo]) - s[lo]);
}
