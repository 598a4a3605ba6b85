/**
 * Counts the elements every typed array copies in (`set`) or fills (`fill`) from the call on,
 * until the test restores its mocks (`vi.restoreAllMocks()`): how much one step of a growing
 * structure moves, whatever array it grows.
 */
import { vi } from "vitest";

export function countTypedArrayMoves(): { moved: number } {
  const typed = Object.getPrototypeOf(Int32Array.prototype) as {
    set(this: ArrayLike<number>, a: ArrayLike<number>): void;
    fill(this: ArrayLike<number>): unknown;
  };
  const counter = { moved: 0 };
  const set = typed.set;
  const fill = typed.fill;
  vi.spyOn(typed, "set").mockImplementation(function (this: ArrayLike<number>, ...a: unknown[]) {
    counter.moved += (a[0] as ArrayLike<number>).length;
    return (set as (...x: unknown[]) => void).apply(this, a);
  });
  vi.spyOn(typed, "fill").mockImplementation(function (this: ArrayLike<number>, ...a: unknown[]) {
    counter.moved += this.length;
    return (fill as (...x: unknown[]) => unknown).apply(this, a);
  });
  return counter;
}
