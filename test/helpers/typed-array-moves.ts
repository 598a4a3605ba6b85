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

/**
 * Counts the elements of every Int32Array, Uint8Array and Uint16Array made with a length (not a
 * view of another's buffer) from the call on, until the test unstubs its globals
 * (`vi.unstubAllGlobals()`): how much one step of a growing structure allocates (and so zeroes).
 */
export function countTypedArrayAllocations(): { allocated: number } {
  const counter = { allocated: 0 };
  for (const Base of [Int32Array, Uint8Array, Uint16Array]) {
    const Counting = class extends (Base as Int32ArrayConstructor) {
      constructor(...a: unknown[]) {
        super(...(a as [number]));
        if (typeof a[0] === "number") counter.allocated += a[0];
      }
    };
    vi.stubGlobal(Base.name, Counting);
  }
  return counter;
}
