import { AIPERF_LINE_BITS, type TimelinePayload } from "@/lib/api/timeline";
import { formatMs } from "@/lib/format-number";
import { segmentWords } from "@/lib/metrics/segment-words";

/** One bar in words: its request, lane, start, length and each recorded part. */
export function describeBar(p: TimelinePayload, b: number): string {
  const parts: string[] = [];
  p.parts.bar.forEach((bar, k) => {
    if (bar === b)
      parts.push(
        `${segmentWords(p.segments[p.parts.seg[k]].name)} ${formatMs(p.parts.endMs[k] - p.parts.startMs[k])}`,
      );
  });
  const lane = p.lanes[p.bars.lane[b]]?.label ?? "";
  const id = p.bars.id[b];
  const name = p.source === "trtllm" ? `request idx ${id}` : `record at line ${id % AIPERF_LINE_BITS}`;
  return `${name} on ${lane}: starts ${formatMs(p.bars.startMs[b])}, lasts ${formatMs(p.bars.endMs[b] - p.bars.startMs[b])}${parts.length ? ` (${parts.join(", ")})` : ""}`;
}
