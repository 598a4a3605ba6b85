"use client";

import { useQueryState } from "nuqs";
import { useOptimistic } from "react";
import { useChartTransition } from "@/components/charts/chart-pending";
import { runSearchParams } from "@/components/run/search-params";
import { VALUE_SCALES, type SegmentScope } from "@/lib/api/trtllm-charts";

/** The segment-scope toggle's options, shared by every chart that offers it. */
export const SCOPE_OPTIONS: ReadonlyArray<{ id: SegmentScope; text: string }> = [
  { id: "all", text: "all segments" },
  { id: "ttft", text: "TTFT segments only" },
];

/**
 * A row of toggle buttons bound to one URL parameter. The pressed button moves at once; the
 * change itself is a transition, so redrawing the views behind it never holds back the paint
 * that shows the click landed; meanwhile the charts it changes say they are updating.
 */
export function ToggleGroup<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  /** `disabled`: why the option cannot be chosen (it has no data in this run), shown as its tooltip. */
  options: ReadonlyArray<{ id: T; text: string; disabled?: string }>;
  value: T;
  onChange: (v: T) => void;
}) {
  // The page's chart transition: every chart in its scope shows the change pending until drawn.
  const [pending, startTransition] = useChartTransition();
  const [shown, setShown] = useOptimistic(value);
  return (
    <div className="flex items-center gap-1" role="group" aria-label={label} aria-busy={pending || undefined}>
      {options.map((o) => (
        <button
          key={o.id}
          type="button"
          className={o.id === shown ? "btn" : "btn-ghost"}
          aria-pressed={o.id === shown}
          disabled={o.disabled !== undefined}
          title={o.disabled}
          onClick={() =>
            startTransition(() => {
              setShown(o.id);
              onChange(o.id);
            })
          }
        >
          {o.text}
        </button>
      ))}
    </div>
  );
}

/**
 * The segments shown ("all segments" / "TTFT segments only"), bound to the URL's `segments`: one
 * control, one state, for every breakdown chart that offers it (the headline bar, the per-request
 * stacks, the share over time), so they never disagree.
 */
export function SegmentScopeToggle() {
  const [scope, setScope] = useQueryState("segments", runSearchParams.segments);
  return (
    <ToggleGroup
      label="segments shown"
      options={SCOPE_OPTIONS}
      value={scope}
      onChange={(s) => void setScope(s)}
    />
  );
}

/**
 * The time axis (linear / log), bound to the URL's `scale`: one control, one state, for the
 * headline bar and the per-request stacks; a log axis starts below the shortest bar
 * (lib/metrics/bar-labels.ts `logFloor`).
 */
export function ValueScaleToggle() {
  const [scale, setScale] = useQueryState("scale", runSearchParams.scale);
  return (
    <ToggleGroup
      label="time axis"
      options={VALUE_SCALES.map((s) => ({ id: s, text: s }))}
      value={scale}
      onChange={(s) => void setScale(s)}
    />
  );
}
