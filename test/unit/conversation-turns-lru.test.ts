/**
 * The conversation tracker of lib/metrics/conversation-turns.ts (docs/metrics.md §Turns) against a
 * reference written the plain way: an array of conversations in recency order, searched and
 * spliced on every request. Inputs are seeded random streams shaped like aiperf records
 * (conversation_id and turn_index of common/models/record_models.py MetricRecordMetadata): several
 * turns per conversation, out-of-order and repeated turns, missing ids, turns and token counts,
 * failed and warm-up requests, new files, and limits small enough that forgetting happens often.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/metrics/regression/random";
import { MAX_OPEN_CONVERSATIONS, PossibleReuse } from "@/lib/metrics/conversation-turns";

interface Remembered {
  id: string;
  turn: number;
  input: number;
  output: number;
  profiling: boolean;
}

/** possible(k) = min(ISL(k), ISL(k−1) + OSL(k−1)); recency by position, oldest first. */
class Reference {
  private open: Remembered[] = [];
  conversations = 0;
  constructor(private readonly maxOpen: number) {}

  reset(): void {
    this.open = [];
  }

  next(
    id: string | null,
    turn: number | null,
    input: number | null,
    output: number | null,
    failed: boolean,
    profiling = true,
  ): number {
    if (id === null || turn === null) return NaN;
    let possible = turn === 0 ? 0 : NaN;
    const at = this.open.findIndex((c) => c.id === id);
    let c: Remembered;
    if (at === -1) {
      c = { id, turn: -1, input: NaN, output: 0, profiling: false };
      this.open.push(c);
      if (this.open.length > this.maxOpen) this.open.shift();
    } else {
      c = this.open[at];
      if (turn > 0 && c.turn === turn - 1 && input !== null && Number.isFinite(c.input))
        possible = Math.min(input, c.input + c.output);
      this.open.splice(at, 1);
      this.open.push(c);
    }
    if (profiling && !c.profiling) {
      this.conversations++;
      c.profiling = true;
    }
    if (turn >= c.turn) {
      c.turn = turn;
      c.input = input ?? NaN;
      c.output = failed ? 0 : (output ?? 0);
    }
    return possible;
  }
}

type Call = Parameters<PossibleReuse["next"]>;

/** A seeded stream of requests over `ids` conversations, with a new file now and then. */
function* stream(seed: number, length: number, ids: number): Generator<Call | "reset"> {
  const rand = mulberry32(seed);
  const pick = (n: number) => Math.floor(rand() * n);
  const nextTurn = new Int32Array(ids);
  for (let i = 0; i < length; i++) {
    if (rand() < 0.005) {
      nextTurn.fill(0);
      yield "reset";
      continue;
    }
    const c = pick(ids);
    const r = rand();
    // Mostly the conversation's next turn; sometimes a repeat, an older turn, a skipped one.
    let turn: number | null = nextTurn[c];
    if (r < 0.05) turn = Math.max(0, turn - 1 - pick(3));
    else if (r < 0.08) turn += 1 + pick(2);
    else if (r < 0.1) turn = null;
    if (turn !== null) nextTurn[c] = Math.max(nextTurn[c], turn + 1);
    const id = rand() < 0.02 ? null : `conv-${c}`;
    const input = rand() < 0.05 ? null : 200 + pick(4000);
    const output = rand() < 0.05 ? null : pick(800);
    yield [id, turn, input, output, rand() < 0.1, rand() >= 0.1];
  }
}

function compare(seed: number, length: number, ids: number, maxOpen: number): void {
  const ours = new PossibleReuse(maxOpen);
  const ref = new Reference(maxOpen);
  let i = 0;
  for (const call of stream(seed, length, ids)) {
    i++;
    if (call === "reset") {
      ours.reset();
      ref.reset();
      continue;
    }
    const got = ours.next(...call);
    const want = ref.next(...call);
    // Object.is: NaN (not known) must stay NaN and never become 0, and 0 must not be -0.
    if (!Object.is(got, want) || ours.conversations !== ref.conversations)
      expect({ seed, maxOpen, request: i, call, possible: got, conversations: ours.conversations }).toEqual({
        seed,
        maxOpen,
        request: i,
        call,
        possible: want,
        conversations: ref.conversations,
      });
  }
  expect(ours.conversations).toBe(ref.conversations);
}

describe("the conversation tracker equals the plain reference", () => {
  it("on seeded multi-turn streams, with limits from none to above every conversation", () => {
    for (const maxOpen of [0, 1, 2, 3, 7, 50, 400, MAX_OPEN_CONVERSATIONS])
      for (const seed of [1, 2, 3]) compare(seed * 1000 + maxOpen, 20_000, 300, maxOpen);
  });

  it("when the slots grow past their first allocation and are reused after forgetting", () => {
    // 3,000 conversations open at once: the typed arrays double from 1,024; then a limit of 2,000
    // forgets and reuses slots while the conversations keep coming back.
    compare(11, 60_000, 3_000, MAX_OPEN_CONVERSATIONS);
    compare(12, 60_000, 3_000, 2_000);
  });

  it("on hand cases at the edges of the recency list", () => {
    const r = new PossibleReuse(3);
    const ref = new Reference(3);
    const both = (...call: Call) => {
      const got = r.next(...call);
      expect(got).toEqual(ref.next(...call));
      return got;
    };
    both("a", 0, 100, 10, false);
    both("a", 1, 200, 10, false); // touching the newest leaves the order as it is
    both("b", 0, 100, 10, false);
    both("c", 0, 100, 10, false);
    expect(both("a", 2, 300, 10, false)).toBe(210); // the oldest touched: b is now the oldest
    both("d", 0, 100, 10, false); // forgets b
    expect(both("b", 1, 200, 10, false)).toBeNaN(); // and forgets c
    expect(both("c", 1, 200, 10, false)).toBeNaN();
    expect(both("a", 3, 400, 10, false)).toBeNaN(); // a was forgotten by c's return
    expect(both("d", 1, 200, 10, false)).toBeNaN(); // forgotten too
    r.reset();
    ref.reset();
    expect(both("a", 0, 100, 10, false)).toBe(0);
    expect(both("a", 1, 150, 10, false)).toBe(110);
    expect(r.conversations).toBe(ref.conversations);
  });

  it("remembers nothing with a limit of 0, and counts each request as a conversation", () => {
    const r = new PossibleReuse(0);
    expect(r.next("a", 0, 100, 10, false)).toBe(0);
    expect(r.next("a", 1, 200, 10, false)).toBeNaN();
    expect(r.next("b", 1, 200, 10, false, false)).toBeNaN();
    expect(r.conversations).toBe(2);
  });
});

describe("a single-turn run of 600,000 requests", () => {
  it("finishes with every request a first turn and the last 200,000 conversations remembered", () => {
    const n = 600_000;
    const r = new PossibleReuse();
    let zeros = 0;
    for (let i = 0; i < n; i++) if (Object.is(r.next(`conv-${i}`, 0, 1000, 100, false), 0)) zeros++;
    expect(zeros).toBe(n);
    expect(r.conversations).toBe(n);
    // The oldest remembered is request n − 200,000; the one before it was forgotten.
    expect(r.next(`conv-${n - MAX_OPEN_CONVERSATIONS}`, 1, 1200, 10, false)).toBe(1100);
    expect(r.next(`conv-${n - MAX_OPEN_CONVERSATIONS - 1}`, 1, 1200, 10, false)).toBeNaN();
    // The forgotten one came back as a new conversation (the limit's overcount, docs/metrics.md).
    expect(r.conversations).toBe(n + 1);
  });
});
