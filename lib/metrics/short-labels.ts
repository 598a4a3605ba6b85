/**
 * Short axis labels for sets of long names (worker ids, run names). Worker files are named alike
 * ("perf_metrics-server-gen-2-20260101T000000Z"), so what tells them apart sits between a common
 * head and tail; printed whole they were clipped at the axis or wrapped over each other. The chart
 * shows the short label and the full name on hover.
 */

const ELLIPSIS = "…";

/** Parts of a name, each with the separator that ends it ("perf_", "metrics-", …). */
const parts = (name: string) => name.split(/(?<=[-_./ ])/);

function commonHead(split: readonly string[][]): number {
  const shortest = split.reduce((m, p) => Math.min(m, p.length), Infinity);
  let n = 0;
  while (n < shortest - 1 && split.every((p) => p[n] === split[0][n])) n++;
  return n;
}

function commonTail(split: readonly string[][], head: number): number {
  const shortest = split.reduce((m, p) => Math.min(m, p.length), Infinity);
  let n = 0;
  const at = (p: readonly string[], k: number) => p[p.length - 1 - k];
  // At least one part of every name is kept between the head and the tail.
  while (n < shortest - head - 1 && split.every((p) => at(p, n) === at(split[0], n))) n++;
  return n;
}

/** A name cut to `max` characters, keeping its start and its end ("perf_met…00Z"). */
export function cutMiddle(name: string, max: number): string {
  if (name.length <= max) return name;
  const keep = max - ELLIPSIS.length;
  const front = Math.ceil(keep / 2);
  return name.slice(0, front) + ELLIPSIS + name.slice(name.length - (keep - front));
}

/**
 * One short label per name, in order, all distinct when the names are. When some name is longer
 * than `max`, the common head and tail are dropped, separators at the ends trimmed, and the rest cut to `max` characters. Where that
 * would make two labels equal, the names are only cut.
 */
export function shortLabels(names: readonly string[], max = 24): string[] {
  // Names that fit are kept whole: "10.2.0.1:8000" must not lose its common "10.2.0." head.
  if (names.every((n) => n.length <= max)) return [...names];
  const distinct = (labels: string[]) => new Set(labels).size === new Set(names).size;
  if (names.length > 1) {
    const split = names.map(parts);
    const head = commonHead(split);
    const tail = commonTail(split, head);
    const core = split.map((p) =>
      cutMiddle(
        p
          .slice(head, p.length - tail)
          .join("")
          .replace(/^[-_./ ]+|[-_./ ]+$/g, ""),
        max,
      ),
    );
    if (core.every((c) => c.length > 0) && distinct(core)) return core;
  }
  const cut = names.map((n) => cutMiddle(n, max));
  return distinct(cut) ? cut : names.map((n, i) => `${cutMiddle(n, max - 4)} #${i + 1}`);
}
