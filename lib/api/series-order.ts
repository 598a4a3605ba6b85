/**
 * A series' order key (docs/metrics.md §Regressions): what the uploader says comes first. A
 * nightly sets its date (`2026-12-01`, or a full ISO time), a release pipeline its version
 * (`v0.18.1`, `1.2.0-rc.1`), a pull-request pipeline its build number (`$GITHUB_RUN_NUMBER`).
 * A run without one is ordered by its upload time, as a date: an unkeyed run of a nightly series
 * lands between the dates around it.
 */
import { z } from "zod";

export type OrderKind = "number" | "version" | "date";

export interface OrderKey {
  kind: OrderKind;
  /** The number, or the time in epoch ms; the version's parts for a version */
  value: number;
  version?: { core: [number, number, number]; pre: (number | string)[] };
}

const NUMBER = /^-?\d+(\.\d+)?$/;
// Semantic versioning 2.0.0's grammar, with the `v` most tags carry; build metadata is ignored.
const VERSION =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9]\d*|\d*[A-Za-z-][0-9A-Za-z-]*))*))?(?:\+[0-9A-Za-z.-]+)?$/;
// A date, or a date and time with seconds optional and a zone (Z or ±hh:mm) required, so that
// the same text means the same instant on every server.
const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** The order key a text names; null when it is none of a number, a version or an ISO date. */
export function parseOrderKey(text: string): OrderKey | null {
  const s = text.trim();
  if (NUMBER.test(s)) {
    const value = Number(s);
    return Number.isFinite(value) ? { kind: "number", value } : null;
  }
  const v = VERSION.exec(s);
  if (v) {
    const pre = v[4] ? v[4].split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [];
    return { kind: "version", value: 0, version: { core: [Number(v[1]), Number(v[2]), Number(v[3])], pre } };
  }
  if (DATE.test(s)) {
    // A bare date is that day at 00:00 UTC (Date.parse reads it so); a time needs its zone.
    const value = Date.parse(s);
    const [y, m, d] = s.slice(0, 10).split("-").map(Number);
    const day = new Date(Date.UTC(y, m - 1, d));
    // Date.parse rolls 2026-02-30 over to March: refuse a day the calendar has not got.
    if (!Number.isFinite(value) || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) return null;
    return { kind: "date", value };
  }
  return null;
}

/** The form, query and PATCH field: a number, a semantic version or an ISO 8601 date. */
export const orderSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .refine(
    (s) => parseOrderKey(s) !== null,
    "a number (build 1234), a version (v1.2.0) or an ISO date (2026-12-01, 2026-12-01T03:00:00Z)",
  );

const KIND_RANK: Record<OrderKind, number> = { number: 0, version: 1, date: 2 };

// Semantic versioning §11: a pre-release sorts before its release; identifiers compare one by one,
// numbers numerically and below words, words in ASCII order; more identifiers sort later.
function comparePre(a: (number | string)[], b: (number | string)[]): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x - y;
    if (typeof x === "number") return -1;
    if (typeof y === "number") return 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * Order of two keys. Keys of different kinds do not compare: they are grouped, numbers first,
 * then versions, then dates (and runs ordered by their upload time).
 */
export function compareOrderKeys(a: OrderKey, b: OrderKey): number {
  if (a.kind !== b.kind) return KIND_RANK[a.kind] - KIND_RANK[b.kind];
  if (a.kind === "version") {
    const [p, q] = [a.version!, b.version!];
    for (let i = 0; i < 3; i++) if (p.core[i] !== q.core[i]) return p.core[i] - q.core[i];
    return comparePre(p.pre, q.pre);
  }
  return a.value - b.value;
}

/** A run as the series orders it: its order text, else its upload time; then upload time, then id. */
export interface Orderable {
  order: string | null;
  createdAt: number;
  id: string;
}

function keyOf(r: Orderable): OrderKey {
  return (r.order !== null ? parseOrderKey(r.order) : null) ?? { kind: "date", value: r.createdAt };
}

/** The runs in series order, first first (a new array; ties by upload time, then id, so it is stable). */
export function sortSeriesRuns<T>(runs: readonly T[], of: (r: T) => Orderable): T[] {
  const keyed = runs.map((r) => ({ r, o: of(r), k: keyOf(of(r)) }));
  keyed.sort(
    (a, b) =>
      compareOrderKeys(a.k, b.k) ||
      a.o.createdAt - b.o.createdAt ||
      (a.o.id < b.o.id ? -1 : a.o.id > b.o.id ? 1 : 0),
  );
  return keyed.map((x) => x.r);
}
