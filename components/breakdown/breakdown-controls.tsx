"use client";

import { useOptimistic } from "react";
import { useChartTransition } from "@/components/charts/chart-pending";
import type { SegmentScope } from "@/lib/api/trtllm-charts";

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
