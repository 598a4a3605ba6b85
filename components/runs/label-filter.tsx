"use client";

/**
 * Filters the runs table by one label (URL state `?label=`). Offers the labels of the runs
 * loaded so far; any label can still be typed, since older pages may hold others.
 */
export function LabelFilter({
  label,
  known,
  onChange,
}: {
  label: string;
  known: string[];
  onChange: (label: string | null) => void;
}) {
  return (
    <div className="flex items-center gap-1">
      <input
        type="text"
        list="runlens-labels"
        aria-label="Filter by label"
        placeholder="Label"
        className="input w-36"
        value={label}
        onChange={(e) => onChange(e.target.value.trim() || null)}
        data-testid="label-filter"
      />
      <datalist id="runlens-labels">
        {known.map((l) => (
          <option key={l} value={l} />
        ))}
      </datalist>
      {label ? (
        <button
          type="button"
          className="btn-ghost"
          aria-label="Clear label filter"
          onClick={() => onChange(null)}
        >
          ✕
        </button>
      ) : null}
    </div>
  );
}
