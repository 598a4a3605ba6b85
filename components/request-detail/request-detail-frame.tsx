"use client";

import type { ReactNode } from "react";

/**
 * The frame of a request's drill-down (the breakdown's waterfall, the timeline's aiperf record):
 * its title and Close, and a line while the request loads or when it cannot be loaded.
 */
export function RequestDetailFrame({
  title = "Request detail",
  label,
  loading,
  failed,
  onClose,
  children,
}: {
  /** The heading: the request's name once it is loaded */
  title?: string;
  /** The section's accessible name. */
  label: string;
  loading: boolean;
  failed: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <section className="space-y-3 rounded-lg border border-accent/40 p-3" aria-label={label}>
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold" data-testid="request-detail-title">
          {title}
        </h3>
        <button type="button" className="btn-ghost text-xs" onClick={onClose}>
          Close
        </button>
      </div>
      {loading ? <p className="text-sm text-muted">Loading request…</p> : null}
      {failed ? <p className="text-sm text-muted">This request could not be loaded.</p> : null}
      {children}
    </section>
  );
}
