import { describe, expect, it } from "vitest";
import { AgentSessionColumns } from "@/lib/metrics/agent-sessions";
import {
  ConversationIndex,
  MAX_OPEN_CONVERSATIONS,
  NO_TURN,
  PossibleReuse,
} from "@/lib/metrics/conversation-turns";
import { IdTable } from "@/lib/metrics/id-table";
import { prng } from "../generators/prng.mjs";
import { heapInUse } from "../helpers/heap";

// The conversation and session ids the aiperf read remembers (docs/performance.md §Ingest memory
// of an aiperf upload): the open conversations (PossibleReuse), the conversation index and the
// agent sessions each hold up to 200,000 ids. As Maps of id strings they held some 100 bytes an
// id (the string, the map's entry and slack, an array of the ids besides); interned in typed
// arrays they hold the id's characters and a few Int32s. Pinned by bytes, never by time.

/** Past every structure's 200,000-id cap, as a run of 600,000 single-turn requests is */
const N = 300_000;
/** aiperf's x_correlation_id is a UUID: 36 characters */
const uuid = (i: number) =>
  `${((i * 2654435761) >>> 0).toString(16).padStart(8, "0")}-9f1c-4abc-8def-${String(i).padStart(12, "0")}`;

describe("the read's id structures", () => {
  it("hold their ids in typed arrays: at most twice the characters and 64 bytes an id held", () => {
    const before = heapInUse();
    const reuse = new PossibleReuse();
    const index = new ConversationIndex();
    const sessions = new AgentSessionColumns();
    for (let i = 0; i < N; i++) {
      // Each id a string of its own, as the reader hands them over (one per record and field).
      reuse.next(uuid(i), 0, 100, 10, false);
      index.of(uuid(i));
      sessions.add(uuid(i), null, null);
    }
    const held = heapInUse() - before;
    // The caps hold: the newest 200,000 open conversations, the first 200,000 of the others.
    expect([reuse.held.ids, index.size, sessions.held.ids]).toEqual([
      MAX_OPEN_CONVERSATIONS,
      MAX_OPEN_CONVERSATIONS,
      MAX_OPEN_CONVERSATIONS,
    ]);
    const ids = 3 * MAX_OPEN_CONVERSATIONS;
    // The per-record session column (4 bytes a record) is not an id's cost.
    const perId = (held - sessions.held.bytes) / ids;
    // As Maps of strings: some 200 bytes an id here (114 MB for 600,000 records), 100 interned.
    expect(perId).toBeLessThanOrEqual(2 * 36 + 64);
    void [reuse, index, sessions];
  });

  it("count their own bytes: twice the characters at most, and at most 48 bytes an id beside them", () => {
    const reuse = new PossibleReuse();
    const index = new ConversationIndex();
    const sessions = new AgentSessionColumns();
    for (let i = 0; i < N; i++) {
      reuse.next(`c-${i}`, 0, 100, 10, false);
      index.of(`c-${i}`);
      sessions.add(`c-${i}`, null, null);
    }
    const chars = (from: number, to: number) => {
      let n = 0;
      for (let i = from; i < to; i++) n += `c-${i}`.length;
      return n;
    };
    const cap = MAX_OPEN_CONVERSATIONS;
    // Index and sessions hold the first 200,000 ids; the open conversations the last 200,000
    // (their characters with as many forgotten ones at most, before the table copies the live ones).
    expect(index.bytes).toBeLessThanOrEqual(2 * chars(0, cap) + 40 * cap);
    // The sessions hold each one's parent (Int32) and depth (Float64) besides, in chunks.
    expect(sessions.sessionBytes).toBeLessThanOrEqual(2 * chars(0, cap) + 48 * cap);
    // The open conversations' slots (turn, tokens, recency: 29 bytes) come on top of their ids.
    expect(reuse.held.bytes).toBeLessThanOrEqual(2 * 2 * chars(N - cap, N) + (40 + 2 * 29) * cap);
  });
});

describe("the caps keep their meaning", () => {
  it("the conversation index numbers the first `max` ids in order and no later one", () => {
    const index = new ConversationIndex(3);
    expect(["a", "b", "a", "c", "d", "b", null, "e", "c"].map((id) => index.of(id))).toEqual([
      0,
      1,
      0,
      2,
      NO_TURN,
      1,
      NO_TURN,
      NO_TURN,
      2,
    ]);
    expect([index.id(0), index.id(2), index.id(NO_TURN), index.id(3)]).toEqual([
      "a",
      "c",
      undefined,
      undefined,
    ]);
    expect([...index.ids()]).toEqual(["a", "b", "c"]);
  });

  it("the sessions give the first `max` ids a slot, with the first parent and depth written", () => {
    const s = new AgentSessionColumns(2);
    s.add("root", null, null);
    s.add("child", "root", 1);
    s.add("root", null, 0);
    s.add("other", "root", 1);
    s.add("child", "elsewhere", 2);
    s.add(null, null, null);
    expect(Array.from(s.session)).toEqual([0, 1, 0, -1, 1, -1]);
    expect([s.idOf(0), s.parentOf(0), s.depthOf(0)]).toEqual(["root", null, 0]);
    expect([s.idOf(1), s.parentOf(1), s.depthOf(1)]).toEqual(["child", "root", 1]);
    expect([s.sessionCount, s.lineageWritten]).toEqual([2, true]);
  });
});

describe("id table", () => {
  it("finds, adds and deletes as a Map does, over wide characters, reused numbers and copies", () => {
    const rand = prng(7);
    const table = new IdTable();
    const ref = new Map<string, number>();
    const numbers = new Set<number>();
    const pool = Array.from({ length: 3000 }, (_, i) =>
      i % 97 === 0 ? `wide-\u4e2d${i}` : i % 13 === 0 ? "" + i : `conversation-${i}-${"x".repeat(i % 40)}`,
    );
    for (let step = 0; step < 40_000; step++) {
      const id = pool[Math.floor(rand() * pool.length)];
      const known = table.find(id);
      expect(known).toBe(ref.get(id) ?? -1);
      if (known < 0) {
        const n = table.add(id);
        expect(numbers.has(n)).toBe(false);
        numbers.add(n);
        ref.set(id, n);
      } else if (rand() < 0.6) {
        table.delete(known);
        numbers.delete(known);
        ref.delete(id);
        expect(table.text(known)).toBeUndefined();
      }
      expect(table.size).toBe(ref.size);
    }
    for (const [id, n] of ref) expect(table.text(n)).toBe(id);
    // The characters of deleted ids are let go: at most twice the live ones (two bytes each, once wide).
    let live = 0;
    for (const id of ref.keys()) live += id.length;
    expect(table.bytes).toBeLessThanOrEqual(2 * 2 * (live + 4096) + 24 * 4096);
    table.clear();
    expect([table.size, table.bytes, table.find(pool[1])]).toEqual([0, 0, -1]);
  });
});
