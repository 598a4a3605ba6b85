import { formatMs } from "@/lib/format-number";
import { NOT_RECORDED_KEY, segmentColour } from "@/lib/metrics/trtllm-chart-rows";
import { NotRecordedSwatch, NotRecordedText } from "./not-recorded";

interface Props {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: Record<string, unknown> }>;
  segmentNames: readonly string[];
  title: (row: Record<string, unknown>) => string;
}

/** Tooltip for per-request bars: every segment, with "not recorded" where a segment has no value. */
export function SegmentTooltip({ active, payload, segmentNames, title }: Props) {
  const row = payload?.[0]?.payload;
  if (!active || !row) return null;
  const missing = new Set((row[NOT_RECORDED_KEY] as string[] | undefined) ?? []);
  return (
    <div className="rounded border border-border bg-card p-2 text-xs shadow">
      <p className="mb-1 font-medium">{title(row)}</p>
      <ul>
        {segmentNames.map((name) => (
          <li key={name} className="flex items-center gap-2">
            {missing.has(name) ? (
              <NotRecordedSwatch />
            ) : (
              <span
                aria-hidden
                className="inline-block h-2 w-2 rounded-sm"
                style={{ background: segmentColour(name) }}
              />
            )}
            <span className="flex-1">{name}</span>
            <span className="num">
              {missing.has(name) ? <NotRecordedText /> : formatMs(row[name] as number)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
