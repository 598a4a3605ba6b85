"use client";

import { useOptimistic, useTransition } from "react";

/**
 * A row of toggle buttons bound to one URL parameter. The pressed button moves at once; the
 * change itself is a transition, so redrawing the views behind it never holds back the paint
 * that shows the click landed.
 */
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
  const [pending, startTransition] = useTransition();
  const [shown, setShown] = useOptimistic(value);
  return (
    <div className="flex items-center gap-1" role="group" aria-label={label} aria-busy={pending || undefined}>
      {options.map((o) => (
        <button
          key={o.id}
          type="button"
          className={o.id === shown ? "btn" : "btn-ghost"}
          aria-pressed={o.id === shown}
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
