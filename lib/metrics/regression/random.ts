/**
 * A seeded random source for the noise-aware verdicts (docs/metrics.md §Regressions): the same
 * seed draws the same numbers on every machine, so a verdict can be reproduced from its inputs.
 */

/** mulberry32: 32-bit state, uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  // State kept as a signed 32-bit integer (same bits as the usual `>>> 0` form): an unsigned
  // value above 2³¹ would be boxed as a heap number on every draw.
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Random {
  /** Uniform in [0, 1), the raw stream (an index draw ⌊u·n⌋ may be 0). */
  readonly next: () => number;
  private spare: number | null = null;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** Uniform in (0, 1): never 0, so logarithms and powers stay finite. */
  uniform(): number {
    let u = this.next();
    while (u === 0) u = this.next();
    return u;
  }

  /** Standard normal (Box–Muller, the second value kept for the next call). */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const m = Math.sqrt(-2 * Math.log(this.uniform()));
    const angle = 2 * Math.PI * this.next();
    this.spare = m * Math.sin(angle);
    return m * Math.cos(angle);
  }

  /** Gamma(shape, 1) by Marsaglia and Tsang's squeeze; shapes below 1 through Gamma(shape + 1). */
  gamma(shape: number): number {
    if (shape < 1) return this.gamma(shape + 1) * Math.pow(this.uniform(), 1 / shape);
    const d = shape - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      const x = this.normal();
      const v0 = 1 + c * x;
      if (v0 <= 0) continue;
      const v = v0 * v0 * v0;
      const u = this.uniform();
      if (u < 1 - 0.0331 * x * x * x * x) return d * v;
      if (Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
    }
  }

  /** Beta(a, b) as Gamma(a) / (Gamma(a) + Gamma(b)). */
  beta(a: number, b: number): number {
    const x = this.gamma(a);
    return x / (x + this.gamma(b));
  }
}
