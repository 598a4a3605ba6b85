import type { ReactNode } from "react";

/** What a view shows when the run has no data for it, and which upload would fill it. */
export function EmptyView({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-border p-8 text-center text-sm text-muted">
      <p className="font-medium text-fg">{title}</p>
      <p className="mt-1">{children}</p>
    </div>
  );
}
