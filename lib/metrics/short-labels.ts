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
  // A file's extension and its writer's time stamp name no worker: without them a lone worker
  // file ("perf_metrics-server-gen-2-20260101T000000Z.jsonl") fits whole.
  const tidied = names.map(withoutStampAndExtension);
  if (tidied.every((n) => n.length > 0 && n.length <= max) && distinct(tidied)) return tidied;
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

/** A file name without its extension (".jsonl", ".json.gz", …) and a trailing "-20260101T000000Z" stamp. */
export const withoutStampAndExtension = (name: string) =>
  name.replace(/\.(?:jsonl|json|csv|txt|log|prom)(?:\.gz)?$/i, "").replace(/[-_]\d{8}T\d{6}Z$/, "");

const FIELD = " · ";

/**
 * Labels that tell run names apart (Runlens names runs "model · backend · concurrency · file"):
 * a field every name shares is dropped, and each remaining field is shortened among the names
 * that agree on the fields before it, so two runs of one model differ by what differs between
 * them ("TP4_DP2_CTX2048" vs "TP8_DP1_CTX1024") rather than by a middle cut of the whole name,
 * which printed "Qwen/Qwen3.5-3…2_osl1024.json" for two different runs. `max` bounds each field.
 * Names that are equal get "#n"; a lone name is cut to twice `max`. With `total` (an axis's
 * room), the fields are cut shorter until every label fits it, or to 8 characters.
 */
export function distinctLabels(names: readonly string[], max = 24, total?: number): string[] {
  const out = fieldLabels(names, max);
  if (total === undefined || max <= 8 || out.every((l) => l.length <= total)) return out;
  return distinctLabels(names, max - 2, total);
}

function fieldLabels(names: readonly string[], max: number): string[] {
  if (names.length <= 1) return names.map((n) => cutMiddle(n, max * 2));
  const fields = names.map((n) => n.split(FIELD));
  const labels: string[][] = names.map(() => []);
  const walk = (group: number[], f: number) => {
    if (group.length <= 1) return;
    if (group.every((i) => fields[i].length <= f)) return;
    const value = (i: number) => fields[i][f] ?? "";
    const distinctValues = [...new Set(group.map(value))];
    if (distinctValues.length === 1) return walk(group, f + 1);
    const short = new Map(distinctValues.map((v, k) => [v, shortLabels(distinctValues, max)[k]]));
    for (const i of group) if (value(i) !== "") labels[i].push(short.get(value(i))!);
    for (const v of distinctValues)
      walk(
        group.filter((i) => value(i) === v),
        f + 1,
      );
  };
  walk(
    names.map((_, i) => i),
    0,
  );
  const out = labels.map((l, i) => (l.length > 0 ? l.join(FIELD) : cutMiddle(names[i], max)));
  // Equal names (or equal after all): numbered, in order.
  const seen = new Map<string, number>();
  const count = new Map<string, number>();
  for (const l of out) count.set(l, (count.get(l) ?? 0) + 1);
  return out.map((l) => {
    if (count.get(l)! === 1) return l;
    const n = (seen.get(l) ?? 0) + 1;
    seen.set(l, n);
    return `${l} #${n}`;
  });
}
