/**
 * Issue 31, health within 100 ms during an ingest: the conversation and session id tables of an
 * aiperf read grow without placing every id they hold in the one add that grows them. Before, an
 * add that passed half the buckets placed all ids again (131,072 of them at a single-turn run's
 * 131,073rd record, 36% of a 51 ms slice of the upload's main thread, docs/reliability.md); now
 * the ids of the old buckets move MOVE_BUCKETS buckets an add.
 *
 * Its entry and character arrays grow in pages: the first doubled up to a page, then one page more
 * at a time. Before, growing doubled them, copying every entry's start, length and hash (and
 * filling the new starts) in the add that grew them: 262,144 + 3 × 131,072 elements at the
 * 131,073rd id, with the ids' characters copied likewise (the id tables' array growth, 41–74 ms
 * slices of an aiperf upload's main thread with the records logged in them, docs/reliability.md).
 *
 * Counted, never timed: the ids placed in buckets by one add, the elements copied or filled by
 * one add. And the table answers as a Map does while ids move: found, added, deleted, in the old
 * buckets or the new, its characters one byte or two, an id empty or longer than a page.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { IdTable } from "@/lib/metrics/id-table";
import { prng } from "../generators/prng.mjs";
import { countTypedArrayAllocations, countTypedArrayMoves } from "../helpers/typed-array-moves";

describe("IdTable growth", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("places at most a few ids in one add, however many it holds", () => {
    const table = new IdTable();
    let placed = 0;
    const proto = IdTable.prototype as unknown as { place(e: number, h: number): void };
    const place = proto.place;
    vi.spyOn(proto, "place").mockImplementation(function (this: unknown, e: number, h: number) {
      placed++;
      return place.call(this, e, h);
    });
    let most = 0;
    for (let i = 0; i < 300_000; i++) {
      placed = 0;
      table.add(`conversation-${i}`);
      most = Math.max(most, placed);
    }
    console.log(`300,000 ids added: at most ${most} placed by one add`);
    // The new id and the ids of MOVE_BUCKETS (16) old buckets; before, 131,072 in one add.
    expect(most).toBeLessThanOrEqual(17);
    expect(table.size).toBe(300_000);
    for (const i of [0, 65_535, 131_072, 262_143, 299_999])
      expect(table.text(table.find(`conversation-${i}`))).toBe(`conversation-${i}`);
  });

  it("copies or fills at most a few pages of elements in one add, however many ids it holds", () => {
    const counter = countTypedArrayMoves();
    const table = new IdTable();
    let most = 0;
    for (let i = 0; i < 300_000; i++) {
      counter.moved = 0;
      table.add(`session-${i}-${"x".repeat(i % 40)}`);
      most = Math.max(most, counter.moved);
    }
    vi.restoreAllMocks();
    console.log(`300,000 ids added: at most ${most} elements copied or filled by one add`);
    // A page of entries (4,096: a new page's starts filled, or the first page's three arrays
    // doubled to it) and the first page of characters doubled to 16,384; before, 8,388,583 in
    // one add (the characters' array doubled, every id's characters copied).
    expect(most).toBeLessThanOrEqual(3 * 4_096 + 16_384);
    expect(table.size).toBe(300_000);
    for (const i of [0, 4_095, 4_096, 131_072, 299_999])
      expect(table.text(table.find(`session-${i}-${"x".repeat(i % 40)}`))).toBe(
        `session-${i}-${"x".repeat(i % 40)}`,
      );
  });

  it("allocates at most a few pages of elements in one add, however many ids it holds", () => {
    const counter = countTypedArrayAllocations();
    const table = new IdTable();
    let most = 0;
    let total = 0;
    for (let i = 0; i < 300_000; i++) {
      counter.allocated = 0;
      table.add(`conversation-${i}`);
      most = Math.max(most, counter.allocated);
      total += counter.allocated;
    }
    vi.unstubAllGlobals();
    console.log(`300,000 ids added: at most ${most} elements allocated by one add, ${total} in all`);
    // The bucket pages of the ids one add places (the new id and those of MOVE_BUCKETS old
    // buckets, 4,096 buckets a page), a page of entries' three arrays and a page of characters;
    // before, the new buckets whole: 1,048,576 in the add that passed 262,144 ids.
    expect(most).toBeLessThanOrEqual(17 * 4_096 + 3 * 4_096 + 16_384);
    expect(table.size).toBe(300_000);
    for (const i of [0, 4_095, 131_072, 262_144, 299_999])
      expect(table.text(table.find(`conversation-${i}`))).toBe(`conversation-${i}`);
  });

  it("answers as a Map does with ids wide, empty or longer than a page of characters", () => {
    const rand = prng(11);
    const idOf = (r: number, step: number) => {
      const k = Math.floor(rand() * 40_000);
      if (r < 0.002) return "";
      if (r < 0.004) return `long-${k}-${"y".repeat(20_000 + (k % 7))}`;
      if (r < 0.3 && step > 60_000) return `wide-${k}-\u4e2d`;
      return `id-${k}`;
    };
    answersAsAMap(rand, { steps: 120_000, addBelow: 0.55, newId: (_, step) => idOf(rand(), step) });
  });

  it("answers as a Map does while ids move between the old buckets and the new", () => {
    const rand = prng(7);
    answersAsAMap(rand, {
      steps: 100_000,
      addBelow: 0.6,
      newId: (r) => `id-${Math.floor(rand() * 150_000)}${r < 0.01 ? "é" : ""}`,
    });
  });
});

/**
 * `steps` random steps on an IdTable and a Map side by side, each step drawn from `rand`: below
 * `addBelow` (or with nothing live) a look-up of `newId(the step's draw, step)`, added when
 * unknown; then up to 0.85 a delete of a live id; else a look-up of a live id and its text. The
 * table answers as the Map does at every step, and holds what it holds at the end.
 */
function answersAsAMap(
  rand: () => number,
  { steps, addBelow, newId }: { steps: number; addBelow: number; newId: (r: number, step: number) => string },
) {
  const table = new IdTable();
  const map = new Map<string, number>();
  const live: string[] = [];
  // An id as a failure shows it: a long one cut.
  const shown = (id: string | null | undefined) => id?.slice(0, 40);
  for (let step = 0; step < steps; step++) {
    const r = rand();
    if (r < addBelow || live.length === 0) {
      const id = newId(r, step);
      const known = table.find(id);
      if (known !== (map.get(id) ?? -1)) expect([shown(id), known]).toEqual([shown(id), map.get(id) ?? -1]);
      if (known < 0) {
        map.set(id, table.add(id));
        live.push(id);
      }
    } else if (r < 0.85) {
      const at = Math.floor(rand() * live.length);
      const id = live[at];
      table.delete(map.get(id)!);
      map.delete(id);
      live[at] = live[live.length - 1];
      live.pop();
    } else {
      const id = live[Math.floor(rand() * live.length)];
      if (table.find(id) !== map.get(id) || table.text(map.get(id)!) !== id)
        expect([shown(id), table.find(id), shown(table.text(map.get(id)!))]).toEqual([
          shown(id),
          map.get(id),
          shown(id),
        ]);
    }
    if (table.size !== map.size) expect(table.size).toBe(map.size);
  }
  for (const [id, e] of map) {
    expect(table.find(id)).toBe(e);
    expect(table.text(e) === id).toBe(true);
  }
}
