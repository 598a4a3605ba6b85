/**
 * A stored result with its endpoint order taken out: every list of endpoint-keyed objects sorted
 * by key as text, and each per-endpoint chart key (`sm-series-ep-<index>`, numbered in list
 * order) named by the endpoint its payload is about. Two results whose order-free forms hash
 * alike differ in order only; a test pins this hash across a change of order, then the new raw one.
 * A sum over endpoints taken in another order can differ in its last bits (floating-point
 * addition is not associative), so numbers are compared to 12 significant digits.
 */
const EP_KEY = /^sm-series-ep-\d+$/;

function keyOf(v: unknown): string | null {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  for (const k of ["endpoint", "id", "worker"]) if (typeof o[k] === "string") return o[k] as string;
  return null;
}

function walk(v: unknown, rename: Map<string, string>): unknown {
  if (typeof v === "string") return rename.get(v) ?? v;
  if (typeof v === "number") return Number.isInteger(v) ? v : Number(v.toPrecision(12));
  if (Array.isArray(v)) {
    const items = v.map((x) => walk(x, rename));
    const keys = items.map(keyOf);
    if (items.length > 1 && keys.every((k) => k !== null)) {
      const text = (x: unknown) => JSON.stringify(x);
      return items
        .map((x, i) => ({ x, k: keys[i]! }))
        .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : text(a.x) < text(b.x) ? -1 : 1))
        .map((e) => e.x);
    }
    return items;
  }
  if (v !== null && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .map(([k, x]) => [rename.get(k) ?? k, walk(x, rename)] as const)
        .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    );
  return v;
}

/** `charts`: the result's chart payloads, whose `id` names the endpoint of a per-endpoint key. */
export function orderFree(value: unknown, charts: Record<string, unknown>): unknown {
  const rename = new Map<string, string>();
  for (const [key, payload] of Object.entries(charts))
    if (EP_KEY.test(key)) rename.set(key, `sm-series-ep:${keyOf(payload)}`);
  return walk(value, rename);
}
