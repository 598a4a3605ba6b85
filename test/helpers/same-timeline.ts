import { expect } from "vitest";
import type { RequestTimeline } from "@/lib/metrics/request-timeline";

/** The columns of a request timeline, one value a request (or a part). */
const COLUMNS = [
  "id",
  "startMs",
  "endMs",
  "blockMaxEndMs",
  "partOffset",
  "partSeg",
  "partStartMs",
  "partEndMs",
] as const;

/**
 * `b` is the timeline `a` is: the same source, count, origin and segments, every column of the same
 * array type with the same values, and the same lanes, each with its keys and its numbers.
 */
export function expectSameTimeline(a: RequestTimeline, b: RequestTimeline): void {
  expect([b.source, b.n, b.originEpochMs]).toEqual([a.source, a.n, a.originEpochMs]);
  expect(b.segments).toEqual([...a.segments]);
  for (const c of COLUMNS) {
    expect(b[c].constructor, c).toBe(a[c].constructor);
    expect(Array.from(b[c]), c).toEqual(Array.from(a[c]));
  }
  expect(Object.keys(b.lanes).sort()).toEqual(Object.keys(a.lanes).sort());
  for (const g of Object.keys(a.lanes) as Array<keyof RequestTimeline["lanes"]>) {
    expect(b.lanes[g]!.keys, g).toEqual(a.lanes[g]!.keys);
    expect(b.lanes[g]!.of.constructor, g).toBe(a.lanes[g]!.of.constructor);
    expect(Array.from(b.lanes[g]!.of), g).toEqual(Array.from(a.lanes[g]!.of));
  }
}
