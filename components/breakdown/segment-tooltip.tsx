import { formatMs } from "@/lib/format-number";
import { NOT_RECORDED_KEY, segmentColour } from "@/lib/metrics/trtllm-chart-rows";
import { NotRecordedSwatch, NotRecordedText } from "./not-recorded";

interface Props {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: Record<string, unknown> }>;
  /** The segments in stack order: `key` the upstream span name (the row's key), `name` in words */
  segments: ReadonlyArray<{ key: string; name: string }>;
  title: (row: Record<string, unknown>) => string;
}

/**
 * Tooltip for per-request bars: every segment in words (as the legend and the table name it),
 * with "not recorded" where a segment has no value. The row names a segment not recorded by the
 * words the figure's series say (components/charts/figure-props.ts).
 */
export function SegmentTooltip({ active, payload, segments, title }: Props) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  const missing = new Set((row[NOT_RECORDED_KEY] as string[] | undefined) ?? []);
  return (
    <div className="rounded border border-border bg-card p-2 text-xs shadow">
      <p className="mb-1 font-medium">{title(row)}</p>
      <ul>
        {segments.map(({ key, name }) => (
          <li key={key} className="flex items-center gap-2">
            {missing.has(name) ? (
              <NotRecordedSwatch />
            ) : (
              <span
                aria-hidden
                className="inline-block h-2 w-2 rounded-sm"
                style={{ background: segmentColour(key) }}
              />
            )}
            <span className="flex-1">{name}</span>
            <span className="num">
              {missing.has(name) ? <NotRecordedText /> : formatMs(row[key] as number)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
