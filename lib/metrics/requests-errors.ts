/** Error records grouped by type, with a count and the first few messages as examples. */
export interface ErrorGroup {
  type: string;
  code: number | null;
  count: number;
  examples: string[];
  /** First occurrence, ms from the run's first request */
  firstAtMs: number | null;
}

const MAX_EXAMPLES = 3;
const MAX_GROUPS = 50;

export class ErrorTally {
  private groups = new Map<string, ErrorGroup>();
  overflow = 0;

  add(type: string, code: number | null, message: string, atMs: number): void {
    const key = `${type}\u0000${code ?? ""}`;
    let g = this.groups.get(key);
    if (!g) {
      if (this.groups.size >= MAX_GROUPS) {
        this.overflow++;
        return;
      }
      g = { type, code, count: 0, examples: [], firstAtMs: null };
      this.groups.set(key, g);
    }
    g.count++;
    if (Number.isFinite(atMs) && (g.firstAtMs === null || atMs < g.firstAtMs)) g.firstAtMs = atMs;
    const short = message.slice(0, 300);
    if (g.examples.length < MAX_EXAMPLES && !g.examples.includes(short)) g.examples.push(short);
  }

  /** Groups by descending count; `shiftMs` re-anchors first occurrences to the run's origin. */
  list(shiftMs = 0): ErrorGroup[] {
    return [...this.groups.values()]
      .map((g) => ({ ...g, firstAtMs: g.firstAtMs === null ? null : g.firstAtMs - shiftMs }))
      .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
  }
}
