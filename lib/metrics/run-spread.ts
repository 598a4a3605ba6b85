/**
 * Run-to-run spread of repeated runs and when two readings are within each other's spread
 * (docs/metrics.md §Sweeps, "Repeated runs"). Pure.
 *
 * Repeated runs of one sweep point are drawn as one point: the median of the runs' values on each
 * axis, with the runs' minimum and maximum as its interval. Min–max is what was seen: with the
 * two to five repeats a benchmark usually makes, a t-interval would rest on a normality nobody
 * checked and be wider than the data at three runs. Two readings are within each other's spread
 * when their intervals overlap; apart when both come from repeated runs and they do not; and the
 * spread is unknown when a side has one run and the other side's interval does not hold it.
 */
import { percentileSorted, sortedFinite } from "./stats";

export interface Spread {
  /** Median of the runs' values (numpy's linear interpolation: the mean of the middle two of an even count) */
  value: number;
  lo: number;
  hi: number;
  /** Runs behind the value; 1 = a single run, whose spread is not known */
  runs: number;
}

/** The median and min–max of finite values; null when there is none. */
export function spreadOf(values: ArrayLike<number>): Spread | null {
  const s = sortedFinite(values);
  if (s.length === 0) return null;
  return { value: percentileSorted(s, 50), lo: s[0], hi: s[s.length - 1], runs: s.length };
}

export type SpreadVerdict =
  /** The intervals overlap: the difference is within what repeated runs of one setup vary by */
  | "within"
  /** Both sides repeated and their intervals do not overlap */
  | "apart"
  /** A side has one run and the other's interval does not hold its value: its spread is not known */
  | "unknown";

/** Whether two readings (each a median with its min–max) are within each other's spread. */
export function compareSpreads(a: Spread, b: Spread): SpreadVerdict {
  const overlap = a.lo <= b.hi && b.lo <= a.hi;
  if (a.runs < 2 && b.runs < 2) return "unknown";
  if (overlap) return "within";
  return a.runs >= 2 && b.runs >= 2 ? "apart" : "unknown";
}
