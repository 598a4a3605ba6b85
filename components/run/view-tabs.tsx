"use client";

import { useQueryState } from "nuqs";
import type { RunSummary } from "@/lib/api/schemas";
import { DEFAULT_VIEW, RUN_VIEWS, type RunViewId } from "@/lib/api/run-views";
import { runSearchParams } from "./search-params";

/** One tab per view; the choice is `?view=` so a copied link opens the same view. */
export function ViewTabs({ run, current }: { run: RunSummary; current: RunViewId }) {
  const [, setView] = useQueryState("view", runSearchParams.view);
  return (
    <nav className="flex flex-wrap gap-1 border-b border-border" aria-label="Run views">
      {RUN_VIEWS.map((v) => {
        const active = v.id === current;
        const has = v.hasData(run);
        return (
          <button
            key={v.id}
            type="button"
            role="tab"
            aria-selected={active}
            aria-disabled={has ? undefined : true}
            data-view={v.id}
            // A view with nothing to show does not open: its tab says what to upload instead.
            onClick={() => (has ? void setView(v.id === DEFAULT_VIEW ? null : v.id) : undefined)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm ${
              active ? "border-accent font-medium" : "border-transparent hover:border-border"
            } ${has ? "" : "cursor-not-allowed text-muted opacity-60"}`}
            title={has ? undefined : `Nothing to show for this run: ${v.missing}`}
          >
            {v.label}
          </button>
        );
      })}
    </nav>
  );
}
