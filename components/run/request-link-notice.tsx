"use client";

import type { RequestLink } from "./use-request-link";

/**
 * Where a request opened by its id (`?rid=`) is still being found, or is not in the run, the
 * drill-down's place says so in words, never an empty frame.
 */
export function RequestLinkNotice({ link }: { link: RequestLink }) {
  if (link.rid === null || (!link.finding && link.missing === null)) return null;
  return (
    <div
      role="status"
      data-testid="request-link-notice"
      className="flex flex-wrap items-center gap-2 rounded border border-warn/50 px-3 py-2 text-sm"
    >
      <span>{link.finding ? `Finding request ${link.rid}…` : link.missing}</span>
      {link.finding ? null : (
        <button type="button" className="btn-ghost" onClick={link.close}>
          Close
        </button>
      )}
    </div>
  );
}
