"use client";

/**
 * The small select in a compare chart's actions. Its URL parameter is left out at the default
 * (`onPick(null)`), so a shared link names only what the reader changed.
 */
export function ChartPicker<T extends string>({
  label,
  value,
  defaultValue,
  options,
  onPick,
}: {
  label: string;
  value: T;
  defaultValue: T;
  options: ReadonlyArray<readonly [T, string]>;
  onPick: (value: T | null) => void;
}) {
  return (
    <select
      aria-label={label}
      className="input py-0.5 text-xs"
      value={value}
      onChange={(e) => onPick(e.target.value === defaultValue ? null : (e.target.value as T))}
    >
      {options.map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </select>
  );
}
