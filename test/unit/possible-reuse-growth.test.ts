/**
 * Issue 31, health within 100 ms during an ingest: the open conversations of an aiperf read
 * (PossibleReuse) keep each conversation's latest turn in six columns of slots. Before, the six
 * were typed arrays doubled when a new conversation passed their length, every slot's values
 * copied in that one record: 6 × 131,072 elements at the 131,073rd conversation (with the records
 * logged in the same turn, 41–74 ms slices of an aiperf upload's main thread, docs/performance.md
 * §The last long ingest slices in steps). Now they grow in chunks, so one record copies at most
 * the first chunk's doubling of each column.
 *
 * Counted, never timed: the elements copied or filled by one `next`. And the answers are those
 * of a plain model (a Map in recency order) for random conversations across the columns' growth
 * and the forgetting of the conversation idle longest.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { COLUMN_CHUNK } from "@/lib/metrics/chunked-column";
import { PossibleReuse } from "@/lib/metrics/conversation-turns";
import { prng } from "../generators/prng.mjs";
import { countTypedArrayMoves } from "../helpers/typed-array-moves";

describe("PossibleReuse growth", () => {
  afterEach(() => vi.restoreAllMocks());

  it("copies or fills at most a chunk's doubling a column in one record, however many conversations it holds", () => {
    const counter = countTypedArrayMoves();
    const reuse = new PossibleReuse();
    let most = 0;
    for (let i = 0; i < 300_000; i++) {
      counter.moved = 0;
      reuse.next(`conversation-${i}`, 0, 100, 10, false);
      most = Math.max(most, counter.moved);
    }
    vi.restoreAllMocks();
    console.log(`300,000 conversations: at most ${most} elements copied or filled by one record`);
    // Six columns' first chunks doubled to COLUMN_CHUNK (half of it copied each), and the id
    // table's pages (three entry arrays' first page doubled to 4,096, characters to 16,384);
    // before, 786,432 and more in one record (the six arrays doubled from 131,072).
    expect(most).toBeLessThanOrEqual(6 * (COLUMN_CHUNK / 2) + 3 * 4_096 + 16_384);
    expect(reuse.held.ids).toBe(200_000);
    expect(reuse.next("conversation-299999", 1, 200, 10, false)).toBe(110);
    expect(reuse.next("conversation-0", 1, 200, 10, false)).toBeNaN();
  });

  it("answers as a plain model does across growth and forgetting", () => {
    for (const [seed, maxOpen, ids] of [
      [1, 3, 10],
      [2, 1_000, 3_000],
      [3, 5_000, 20_000],
      [4, 0, 5],
    ] as const) {
      const rand = prng(seed);
      const reuse = new PossibleReuse(maxOpen);
      // id → latest turn, its prompt and answer; insertion order is recency (oldest first).
      const model = new Map<string, { turn: number; input: number; output: number; profiling: boolean }>();
      let conversations = 0;
      for (let step = 0; step < 60_000; step++) {
        if (rand() < 0.0005) {
          reuse.reset();
          model.clear();
        }
        const id = `c${Math.floor(rand() * ids)}`;
        const seen = model.get(id);
        const turn = seen && rand() < 0.8 ? seen.turn + 1 : Math.floor(rand() * 3);
        const input = rand() < 0.05 ? null : Math.floor(rand() * 1000);
        const output = rand() < 0.05 ? null : Math.floor(rand() * 100);
        const failed = rand() < 0.1;
        const profiling = rand() < 0.9;
        let expected = turn === 0 ? 0 : NaN;
        if (seen && turn > 0 && seen.turn === turn - 1 && input !== null && Number.isFinite(seen.input))
          expected = Math.min(input, seen.input + seen.output);
        let entry = seen;
        if (entry === undefined) {
          entry = { turn: -1, input: NaN, output: 0, profiling: false };
          model.set(id, entry);
          if (model.size > maxOpen) model.delete(model.keys().next().value!);
        } else {
          model.delete(id);
          model.set(id, entry);
        }
        if (profiling && !entry.profiling) {
          conversations++;
          entry.profiling = true;
        }
        if (turn >= entry.turn) {
          entry.turn = turn;
          entry.input = input ?? NaN;
          entry.output = failed ? 0 : (output ?? 0);
        }
        const got = reuse.next(id, turn, input, output, failed, profiling);
        if (Number.isNaN(expected)) expect(got, `seed ${seed} step ${step}`).toBeNaN();
        else expect(got, `seed ${seed} step ${step}`).toBe(expected);
      }
      expect(reuse.conversations).toBe(conversations);
      expect(reuse.held.ids).toBe(model.size);
    }
  });
});
