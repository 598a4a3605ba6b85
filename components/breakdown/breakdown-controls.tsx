"use client";

import type { SegmentScope } from "@/lib/api/trtllm-charts";

/** The segment-scope toggle's options, shared by every chart that offers it. */
export const SCOPE_OPTIONS: ReadonlyArray<{ id: SegmentScope; text: string }> = [
  { id: "all", text: "all segments" },
  { id: "ttft", text: "TTFT segments only" },
];

/** A row of toggle buttons bound to one URL parameter. */
export function ToggleGroup<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: ReadonlyArray<{ id: T; text: string }>;
  value: T;
  onChange: (v: T) => void;
}) {
  return (
    <div className="flex items-center gap-1" role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.id}
          type="button"
          className={o.id === value ? "btn" : "btn-ghost"}
          aria-pressed={o.id === value}
          onClick={() => onChange(o.id)}
        >
          {o.text}
        </button>
      ))}
    </div>
  );
}
