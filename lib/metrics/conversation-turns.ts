/**
 * Conversations and turns of a run's requests (docs/metrics.md §Turns), kept beside the
 * RequestLog in typed columns indexed like it: the turn index, the prompt tokens the server served
 * from cache and the prompt tokens an earlier turn made reusable.
 *
 * Possible reuse. aiperf sends each turn of a multi-turn conversation with the whole history
 * before it: turn k's prompt is turn k−1's prompt, then its answer, then the new user message
 * (aiperf `dataset/` multi-turn conversations; the history is replayed by the worker). So the
 * prefix turn k could find cached is at most what turn k−1 sent and got back:
 *
 *   possible(k) = min(ISL(k), ISL(k−1) + OSL(k−1)),  possible(0) = 0
 *
 * with OSL(k−1) read as 0 when that turn failed (no answer joined the history). When turn k−1 of
 * the conversation was not seen before turn k (records out of order, a trimmed file) or either
 * prompt length is unknown, the possible reuse is not known (NaN), never 0. Prefixes shared
 * between different conversations (a common system prompt) are not counted: that is what
 * aiperf's run-level `theoretical_prefix_cache_hit` covers, shown beside it.
 */

import { ChunkedColumn } from "./chunked-column";
import { IdTable } from "./id-table";

export const NO_TURN = -1;

/**
 * Conversations remembered at once. A single-turn run of a million requests has a million
 * conversations of one turn each; past this many, the one idle longest is forgotten, and its next
 * turn (if any) has an unknown possible reuse rather than a guessed one.
 */
export const MAX_OPEN_CONVERSATIONS = 200_000;

/**
 * Tracks each conversation's latest turn within one records file (trials reuse conversation ids).
 * A conversation's latest turn sits in a slot of typed arrays, found by its id: no object per
 * conversation, since this runs once per record of every aiperf run. The slot is the id's number
 * in an IdTable (no Map of id strings), which forgets the id when its conversation is forgotten.
 *
 * Recency is a doubly linked list through the slots (`older`/`newer`, slot numbers in Int32Arrays),
 * oldest at `head`: touching a conversation moves its slot to the tail and forgetting one takes the
 * head, both in constant time. (Keeping recency as a Map's insertion order, deleting and
 * re-inserting the id on every request, made finding the oldest key scan the map's deleted entries:
 * minutes of main thread on a single-turn run of 600k requests, every one of them a new
 * conversation past the limit.) A forgotten conversation's slot is reused by the next new one.
 */
export class PossibleReuse {
  /** Conversation id → slot: the id's number in the table */
  private slots = new IdTable();
  /**
   * The slots' columns, in chunks: a new slot past the last one pushes a value to each, so growing
   * never copies what is held (doubling the six arrays copied every slot's values in the one
   * record that passed their length: 6 × 131,072 at the 131,073rd conversation, issue 31).
   */
  private turn = new ChunkedColumn(Int32Array);
  private inputTokens = new ChunkedColumn(Float64Array);
  private outputTokens = new ChunkedColumn(Float64Array);
  /** 1 once a profiling request of the slot's conversation was counted */
  private profiling = new ChunkedColumn(Uint8Array);
  /** The slot touched before this one (toward `head`), −1 for the oldest */
  private older = new ChunkedColumn(Int32Array);
  /** The slot touched after this one (toward `tail`), −1 for the newest */
  private newer = new ChunkedColumn(Int32Array);
  /** The six, for what is done to each alike */
  private readonly columns: readonly ChunkedColumn<Int32Array | Float64Array | Uint8Array>[] = [
    this.turn,
    this.inputTokens,
    this.outputTokens,
    this.profiling,
    this.older,
    this.newer,
  ];
  /** The conversation idle longest, −1 when none */
  private head = -1;
  /** The conversation touched last, −1 when none */
  private tail = -1;
  /** Conversations with a profiling request, over every file */
  conversations = 0;

  constructor(private readonly maxOpen = MAX_OPEN_CONVERSATIONS) {}

  /** Starts a new file: conversations of another trial are not this one's history. */
  reset(): void {
    this.slots.clear();
    this.head = this.tail = -1;
  }

  /**
   * Forgets every open conversation and frees the slots (keeps `conversations`): once every
   * records file is read, nothing asks for a conversation's latest turn again.
   */
  release(): void {
    this.reset();
    for (const c of this.columns) c.release();
  }

  /** Ids remembered and bytes of the slots' columns and of the id table, for the memory tests. */
  get held(): { ids: number; bytes: number } {
    let bytes = this.slots.bytes;
    for (const c of this.columns) bytes += c.bytes;
    return { ids: this.slots.size, bytes };
  }

  /** The slot of a conversation the table does not hold, its columns grown to hold it. */
  private slotFor(conversationId: string): number {
    const slot = this.slots.add(conversationId);
    // The table hands out a freed number first, else the next after the highest: one push a column.
    while (this.turn.length <= slot) for (const c of this.columns) c.push(0);
    return slot;
  }

  /** Puts a slot that is in no list at the tail (the newest). */
  private append(slot: number): void {
    this.older.set(slot, this.tail);
    this.newer.set(slot, -1);
    if (this.tail === -1) this.head = slot;
    else this.newer.set(this.tail, slot);
    this.tail = slot;
  }

  /** Takes a slot out of the list. */
  private unlink(slot: number): void {
    const older = this.older.get(slot);
    const newer = this.newer.get(slot);
    if (older === -1) this.head = newer;
    else this.newer.set(older, newer);
    if (newer === -1) this.tail = older;
    else this.older.set(newer, older);
  }

  /**
   * The possible reuse of this turn (NaN when not known), and remembers the turn for the next.
   * `inputTokens`/`outputTokens` are null when not recorded.
   */
  next(
    conversationId: string | null,
    turn: number | null,
    inputTokens: number | null,
    outputTokens: number | null,
    failed: boolean,
    profiling = true,
  ): number {
    if (conversationId === null || turn === null) return NaN;
    let slot = this.slots.find(conversationId);
    let possible = turn === 0 ? 0 : NaN;
    if (slot < 0) {
      slot = this.slotFor(conversationId);
      this.profiling.set(slot, 0);
      this.turn.set(slot, -1);
      this.append(slot);
      if (this.slots.size > this.maxOpen) {
        // The head is the conversation idle longest (the new one itself only when maxOpen is 0:
        // its slot is then written below and handed out again by the next new conversation).
        const oldest = this.head;
        this.unlink(oldest);
        this.slots.delete(oldest);
      }
    } else {
      if (
        turn > 0 &&
        this.turn.get(slot) === turn - 1 &&
        inputTokens !== null &&
        Number.isFinite(this.inputTokens.get(slot))
      )
        possible = Math.min(inputTokens, this.inputTokens.get(slot) + this.outputTokens.get(slot));
      // Moved to the tail, so the head is always the conversation idle longest.
      if (slot !== this.tail) {
        this.unlink(slot);
        this.append(slot);
      }
    }
    if (profiling && this.profiling.get(slot) === 0) {
      this.conversations++;
      this.profiling.set(slot, 1);
    }
    // A turn older than the one remembered (records out of order) does not replace it.
    if (turn >= this.turn.get(slot)) {
      this.turn.set(slot, turn);
      this.inputTokens.set(slot, inputTokens ?? NaN);
      this.outputTokens.set(slot, failed ? 0 : (outputTokens ?? 0));
    }
    return possible;
  }
}

/**
 * Per-request turn columns, indexed like the run's RequestLog: chunked while the read fills them,
 * each handed out as one exact typed array once it is over (as RequestLog's columns).
 */
export class TurnColumns {
  length = 0;
  private turnStore = new ChunkedColumn(Int32Array);
  private cachedStore = new ChunkedColumn(Float64Array);
  private possibleStore = new ChunkedColumn(Float64Array);
  private convStore = new ChunkedColumn(Int32Array);
  /** Whether any record carried a turn index above 0 (a multi-turn run) */
  multiTurn = false;
  /** Whether any record carried the server's cached prompt tokens */
  anyCached = false;

  /** Each request's turn index, NO_TURN when it has none */
  get turn(): Int32Array {
    return this.turnStore.array();
  }
  /** Each request's prompt tokens served from cache, NaN when not recorded */
  get cached(): Float64Array {
    return this.cachedStore.array();
  }
  /** Each request's possibly reusable prompt tokens, NaN when not known (writes are kept) */
  get possible(): Float64Array {
    return this.possibleStore.array();
  }
  /** The request's conversation in a ConversationIndex, NO_TURN when not indexed */
  get conv(): Int32Array {
    return this.convStore.array();
  }

  add(turn: number | null, cached: number | null, possible: number, conv = NO_TURN): void {
    this.turnStore.push(turn ?? NO_TURN);
    this.convStore.push(conv);
    this.cachedStore.push(cached ?? NaN);
    this.possibleStore.push(possible);
    this.length++;
    if (turn !== null && turn > 0) this.multiTurn = true;
    if (cached !== null) this.anyCached = true;
  }

  /** Makes every column one exact array, one at a time (as RequestLog.compact). */
  compact(): void {
    void this.turn;
    void this.conv;
    void this.cached;
    void this.possible;
  }

  /** Drops every column once the turns and sessions are made (the ingest's `finish`). */
  release(): void {
    this.length = 0;
    this.turnStore.release();
    this.convStore.release();
    this.cachedStore.release();
    this.possibleStore.release();
  }

  /** Bytes of the columns held (their capacity, not only the values added). */
  get bytes(): number {
    return this.turnStore.bytes + this.convStore.bytes + this.cachedStore.bytes + this.possibleStore.bytes;
  }
}

/**
 * Conversation ids of the run by number, so a request's conversation can be found again once
 * every file is read (inputs.json may come after the records). At most `max` ids: past that, a
 * request's conversation is not indexed and keeps the possible reuse its records gave. The ids
 * sit in an IdTable (no Map or array of id strings); numbers are given in order from 0.
 */
export class ConversationIndex {
  private table = new IdTable();

  constructor(private readonly max = MAX_OPEN_CONVERSATIONS) {}

  /** Ids held, for the memory tests. */
  get size(): number {
    return this.table.size;
  }

  /** Bytes of the id table, for the memory tests. */
  get bytes(): number {
    return this.table.bytes;
  }

  /** The id numbered `k` (undefined for NO_TURN or a number not given). */
  id(k: number): string | undefined {
    return this.table.text(k);
  }

  /** Every id held, in the order of their numbers. */
  *ids(): Generator<string> {
    for (let k = 0; k < this.table.size; k++) yield this.table.text(k)!;
  }

  /** Forgets every id once nothing looks a conversation up again (the ingest's `finish`). */
  release(): void {
    this.table.clear();
  }

  of(id: string | null): number {
    if (id === null) return NO_TURN;
    const known = this.table.find(id);
    if (known >= 0) return known;
    if (this.table.size >= this.max) return NO_TURN;
    return this.table.add(id);
  }
}
