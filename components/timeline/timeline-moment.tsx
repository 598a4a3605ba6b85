"use client";

import type { TimelinePayload } from "@/lib/api/timeline";
import { formatMs, ordinal, plural } from "@/lib/format-number";
import { segmentWords } from "@/lib/metrics/segment-words";

const MAX_LANES = 12;

/** Per lane at `t`: the shown requests in flight, and how many are in each part. */
export function lanesAt(p: TimelinePayload, t: number) {
  const inFlight = p.lanes.map(() => 0);
  const bySeg = p.lanes.map(() => new Array<number>(p.segments.length).fill(0));
  for (let b = 0; b < p.bars.id.length; b++)
    if (p.bars.startMs[b] <= t && t <= p.bars.endMs[b]) inFlight[p.bars.lane[b]]++;
  p.parts.bar.forEach((b, k) => {
    if (p.parts.startMs[k] <= t && t < p.parts.endMs[k]) bySeg[p.bars.lane[b]][p.parts.seg[k]]++;
  });
  return p.lanes.map((lane, i) => ({ lane: lane.label, inFlight: inFlight[i], bySeg: bySeg[i] }));
}

/** What every lane was doing at the hovered moment (the cursor drawn across the timeline and the strips). */
export function TimelineMoment({
  payload: p,
  cursorMs,
}: {
  payload: TimelinePayload;
  cursorMs: number | null;
}) {
  if (cursorMs === null)
    return (
      <p className="text-xs text-muted">
        Hover the timeline to see what every lane was doing at that moment.
      </p>
    );
  const rows = lanesAt(p, cursorMs);
  const shown = rows.slice(0, MAX_LANES);
  return (
    <div className="text-xs" data-timeline-moment aria-live="off">
      <p className="text-muted">
        At {formatMs(cursorMs)}
        {p.stride > 1 ? `, among the shown sample (every ${ordinal(p.stride)} request)` : ""}:
      </p>
      <ul className="mt-1 grid gap-x-6 sm:grid-cols-2">
        {shown.map((r) => (
          <li key={r.lane}>
            <span className="font-medium">{r.lane}</span>: {r.inFlight} in flight
            {r.bySeg.some((n) => n > 0)
              ? ` (${r.bySeg
                  .map((n, s) => (n > 0 ? `${n} ${segmentWords(p.segments[s].name)}` : null))
                  .filter(Boolean)
                  .join(", ")})`
              : ""}
          </li>
        ))}
      </ul>
      {rows.length > shown.length ? (
        <p className="text-muted">and {plural(rows.length - shown.length, "more lane")}</p>
      ) : null}
    </div>
  );
}
