import { ABSENT_SERIES, type AbsentSeries } from "@/lib/api/absent-series";
import { NOT_EXPORTED } from "@/lib/format-number";

/** A figure the run's exports do not carry: "not exported", and which series is absent. */
export function NotExported({ what }: { what: AbsentSeries }) {
  return (
    <span data-testid="not-exported" data-absent={what}>
      {NOT_EXPORTED} <span className="text-xs font-normal text-muted">({ABSENT_SERIES[what]})</span>
    </span>
  );
}

/** The value, or "not exported" with the absent series when it is null. */
export function orNotExported<T>(v: T | null | undefined, what: AbsentSeries, format: (v: T) => string) {
  return v === null || v === undefined ? <NotExported what={what} /> : format(v);
}
