/**
 * The JSON object form of the Trace Event Format (the format chrome://tracing and Perfetto's JSON
 * importer read), written from its documentation as far as our traces use it, plus the rules
 * Perfetto's importer adds: slices on one track nest, never partly overlap.
 */
import { expect } from "vitest";
import { z } from "zod";

const id = z.number().int().nonnegative();
const micros = z.number().finite().nonnegative();
const args = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** What every event on a track carries: its name, category, process, thread and time. */
const onTrack = {
  name: z.string().min(1),
  cat: z.string().optional(),
  pid: id,
  tid: id,
  ts: micros,
};
const complete = z.object({
  ph: z.literal("X"),
  ...onTrack,
  dur: micros,
  args: args.optional(),
});
const instant = z.object({
  ph: z.literal("i"),
  ...onTrack,
  /** Scope: global, process or thread */
  s: z.enum(["g", "p", "t"]).optional(),
  args: args.optional(),
});
const metadata = z.union([
  z.object({
    ph: z.literal("M"),
    name: z.enum(["process_name", "thread_name"]),
    pid: id,
    tid: id,
    args: z.object({ name: z.string().min(1) }).strict(),
  }),
  z.object({
    ph: z.literal("M"),
    name: z.enum(["process_sort_index", "thread_sort_index"]),
    pid: id,
    tid: id,
    args: z.object({ sort_index: z.number().int() }).strict(),
  }),
]);

export const traceEventSchema = z.union([complete, instant, metadata]);
export type TraceEvent = z.infer<typeof traceEventSchema>;
export type CompleteEvent = z.infer<typeof complete>;

export const traceFileSchema = z
  .object({
    traceEvents: z.array(traceEventSchema),
    displayTimeUnit: z.enum(["ms", "ns"]),
    /** Free-form metadata: string values only, as the format documents it */
    otherData: z.record(z.string(), z.string()),
  })
  .strict();
export type TraceFile = z.infer<typeof traceFileSchema>;

/** Every complete event on a track lies inside, or wholly after, the ones before it. */
export function expectNestedTracks(events: readonly TraceEvent[]): void {
  const tracks = new Map<string, CompleteEvent[]>();
  for (const e of events)
    if (e.ph === "X") tracks.set(`${e.pid}:${e.tid}`, [...(tracks.get(`${e.pid}:${e.tid}`) ?? []), e]);
  const eps = 1e-6;
  for (const [track, slices] of tracks) {
    slices.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const open: number[] = [];
    for (const s of slices) {
      while (open.length > 0 && open[open.length - 1] <= s.ts + eps) open.pop();
      const parentEnd = open[open.length - 1];
      if (parentEnd !== undefined)
        expect(s.ts + s.dur, `${track} ${s.name} at ${s.ts}`).toBeLessThanOrEqual(parentEnd + eps);
      open.push(s.ts + s.dur);
    }
  }
}

/** Every pid and (pid, tid) an event uses is named by a metadata event. */
export function expectNamedTracks(events: readonly TraceEvent[]): void {
  const procs = new Set(events.filter((e) => e.ph === "M" && e.name === "process_name").map((e) => e.pid));
  const threads = new Set(
    events.filter((e) => e.ph === "M" && e.name === "thread_name").map((e) => `${e.pid}:${e.tid}`),
  );
  for (const e of events) {
    if (e.ph === "M") continue;
    expect(procs.has(e.pid), `pid ${e.pid} named`).toBe(true);
    if (e.ph === "X") expect(threads.has(`${e.pid}:${e.tid}`), `thread ${e.pid}:${e.tid} named`).toBe(true);
  }
}
