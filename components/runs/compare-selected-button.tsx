"use client";

import Link from "next/link";
import { compareHref } from "@/components/compare/search-params";

/** Opens the compare page with the ticked runs; the first ticked run is the baseline. */
export function CompareSelectedButton({ ids, onClear }: { ids: string[]; onClear: () => void }) {
  if (ids.length === 0) return null;
  const tooMany = ids.length > 8;
  return (
    <div className="flex items-center gap-2 text-sm">
      {ids.length < 2 ? (
        <span className="text-muted">Tick one more run to compare</span>
      ) : tooMany ? (
        <span className="text-danger">Compare at most 8 runs</span>
      ) : (
        <Link href={compareHref({ runs: ids })} className="btn" data-testid="compare-selected">
          Compare selected ({ids.length})
        </Link>
      )}
      <button type="button" className="btn-ghost" onClick={onClear}>
        Clear
      </button>
    </div>
  );
}
