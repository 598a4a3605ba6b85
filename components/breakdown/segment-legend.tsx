import { formatCount, timeUnitFor } from "@/lib/format-number";
import { segmentWords } from "@/lib/metrics/segment-words";
import { segmentColour, type SegmentStatRow } from "@/lib/metrics/trtllm-chart-rows";
import type { Statistic } from "@/lib/api/trtllm-charts";
import { NotRecordedSwatch, NotRecordedText } from "./not-recorded";

/**
 * Legend and table in one: each segment's colour, value at the statistic, coverage and one-line
 * meaning. The meaning comes last: on a phone it is the column that scrolls off, not the value.
 */
export function SegmentLegend({ rows, stat }: { rows: readonly SegmentStatRow[]; stat: Statistic }) {
  // One time unit for the whole table.
  const ms = timeUnitFor(rows.map((r) => r.valueMs)).format;
  return (
    <table className="table-base w-full text-xs">
      <thead>
        <tr>
          <th>segment</th>
          <th className="num">{stat}</th>
          <th className="num">recorded</th>
          <th className="num">not recorded</th>
          <th>what it measures</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name}>
            <td className="whitespace-nowrap">
              <span className="inline-flex items-start gap-2">
                {r.valueMs === null ? (
                  <NotRecordedSwatch />
                ) : (
                  <span
                    aria-hidden
                    className="mt-1 inline-block h-3 w-3 shrink-0 rounded-sm"
                    style={{ background: segmentColour(r.name) }}
                  />
                )}
                {/* In words, as Compare names the segment; the upstream span name under it, so the
                    cell is as wide as the longer of the two (the value column stays on a phone). */}
                <span className="flex flex-col leading-tight">
                  <span>{segmentWords(r.name)}</span>
                  <code className="text-xs text-muted">{r.name}</code>
                </span>
              </span>
            </td>
            <td className="num">{r.valueMs === null ? <NotRecordedText /> : ms(r.valueMs)}</td>
            <td className="num">
              {formatCount(r.count)}
              {r.clamped > 0 ? (
                <span className="text-muted" title="clock skew of up to 5 ms, set to 0">
                  {" "}
                  (clamped: {formatCount(r.clamped)})
                </span>
              ) : null}
            </td>
            <td className="num">
              {formatCount(r.notRecorded)}
              {r.excluded > 0 ? (
                <span className="text-warn"> (+{formatCount(r.excluded)} excluded)</span>
              ) : null}
            </td>
            <td className="min-w-[16rem] text-muted">{r.label}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
