import type { ReactNode } from "react";

/** A row of labelled headline numbers above a view's charts. */
export function FactsList({ items, testId }: { items: [string, ReactNode][]; testId?: string }) {
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid={testId}>
      {items.map(([label, value]) => (
        <div key={label} className="flex gap-1">
          <dt className="text-muted">{label}</dt>
          <dd className="font-medium num">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
