import type { ReactNode } from "react";
import { runView, type RunViewId } from "@/lib/api/run-views";

/** What a view shows when the run has no data for it, and which upload would fill it. */
export function EmptyView({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div
      className="rounded-lg border border-dashed border-border p-8 text-center text-sm text-muted"
      data-testid="empty-view"
    >
      <p className="font-medium text-fg">{title}</p>
      <p className="mt-1">{children}</p>
    </div>
  );
}

/** The empty view of a manifest view, worded from the manifest (the disabled tab says the same). */
export function ManifestEmptyView({ id, title }: { id: RunViewId; title: string }) {
  const missing = runView(id).missing;
  return <EmptyView title={title}>{missing.charAt(0).toUpperCase() + missing.slice(1)}.</EmptyView>;
}
