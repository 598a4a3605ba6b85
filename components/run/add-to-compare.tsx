"use client";

import Link from "next/link";
import { useCompareBasket } from "@/components/compare/compare-basket";
import { compareHref } from "@/components/compare/search-params";

/**
 * "Add to compare" on a run page: sets the run aside; once two or more are set aside, opens the
 * compare page with them (this run included, the first one added as baseline).
 */
export function AddToCompare({ runId }: { runId: string }) {
  const basket = useCompareBasket();
  const added = basket.ids.includes(runId);
  const ids = added ? basket.ids : [...basket.ids, runId];
  return (
    <div className="flex items-center gap-1">
      <button
        type="button"
        className="btn-ghost py-1.5 text-sm"
        aria-pressed={added}
        data-testid="add-to-compare"
        onClick={() => basket.toggle(runId)}
      >
        {added ? "✓ In compare" : "Add to compare"}
      </button>
      {ids.length >= 2 ? (
        <Link
          href={compareHref({ runs: ids })}
          className="btn-ghost py-1.5 text-sm"
          data-testid="open-compare"
        >
          Compare ({ids.length}) →
        </Link>
      ) : null}
    </div>
  );
}
