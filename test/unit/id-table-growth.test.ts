/**
 * Issue 31, health within 100 ms during an ingest: the conversation and session id tables of an
 * aiperf read grow without placing every id they hold in the one add that grows them. Before, an
 * add that passed half the buckets placed all ids again (131,072 of them at a single-turn run's
 * 131,073rd record, 36% of a 51 ms slice of the upload's main thread, docs/reliability.md); now
 * the ids of the old buckets move MOVE_BUCKETS buckets an add.
 *
 * Counted, never timed: the ids placed in buckets by one add. And the table answers as a Map does
 * while ids move: found, added, deleted, in the old buckets or the new.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { IdTable } from "@/lib/metrics/id-table";
import { prng } from "../generators/prng.mjs";

describe("IdTable growth", () => {
  afterEach(() => vi.restoreAllMocks());

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

  it("answers as a Map does while ids move between the old buckets and the new", () => {
    const rand = prng(7);
    const table = new IdTable();
    const map = new Map<string, number>();
    const live: string[] = [];
    for (let step = 0; step < 100_000; step++) {
      const r = rand();
      if (r < 0.6 || live.length === 0) {
        const id = `id-${Math.floor(rand() * 150_000)}${r < 0.01 ? "é" : ""}`;
        const known = table.find(id);
        if (known !== (map.get(id) ?? -1)) expect([id, known]).toEqual([id, map.get(id) ?? -1]);
        if (known < 0) {
          const e = table.add(id);
          map.set(id, e);
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
          expect([id, table.find(id), table.text(map.get(id)!)]).toEqual([id, map.get(id), id]);
      }
      if (table.size !== map.size) expect(table.size).toBe(map.size);
    }
    for (const [id, e] of map) expect(table.find(id)).toBe(e);
  });
});
