/**
 * Round tick values from 0 to just above `max`: a step of 1, 2, 2.5 or 5 × 10ⁿ giving at most
 * `target` intervals. Recharts' own ticks split an automatic domain into equal parts, which
 * reads 0 / 35 / 70 / 105 tok/s; these read 0 / 25 / 50 / 75 / 100 / 125.
 */
export function niceTicks(max: number, target = 5): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1];
  const raw = max / target;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw)!;
  const n = Math.ceil(max / step - 1e-9);
  // Multiplying rather than summing keeps 0.1 × 3 from drifting to 0.30000000000000004.
  return Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}
