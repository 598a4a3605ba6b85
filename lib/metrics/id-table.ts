/**
 * Id strings (conversation and session ids of an aiperf read) interned as small integers, held in
 * typed arrays rather than as a Map of strings: each id's characters sit in one byte array (one
 * byte a character while every id is Latin-1, two from the first that is not), found by an
 * open-addressing hash of Int32s. A `Map<string, number>` of 200,000 ids held the strings (a
 * header and their characters each, often several copies of one id from different reads), the
 * map's entries and its growth slack; here an id costs its characters and some 20 bytes
 * (docs/performance.md §Ingest memory of an aiperf upload).
 *
 * The table is bounded by its owner: it holds what was added and not deleted. A deleted id's
 * number is handed out again by a later `add`, and its characters are garbage in the byte array
 * until more than half of it is, when the live ids are copied to a new one.
 */

/** Entries, buckets and characters of the first arrays: a table that holds no id holds no array. */
const FIRST = 16;
const FIRST_CHARS = 256;
/**
 * Buckets of the table being left that one `add` moves into the new one. Growing moves the ids a
 * few at a time rather than all in the add that grows it (at 131,072 ids, one add placed them
 * all: tens of ms of an upload's main thread, issue 31). The old buckets are at most half full,
 * so a move takes some 8 ids, and they are gone well before the new table is half full.
 */
const MOVE_BUCKETS = 16;
/** A bucket of the table being left whose id was deleted: passed over by a search, never moved. */
const GONE = -1;

export class IdTable {
  /** Each entry's first character in `chars`, −1 for a free entry */
  private start = new Int32Array(0);
  /** Each entry's length in characters */
  private len = new Int32Array(0);
  /** Each entry's hash */
  private hashes = new Int32Array(0);
  /** Characters of every id, one after the other */
  private chars: Uint8Array | Uint16Array = new Uint8Array(0);
  /** Characters written to `chars` */
  private used = 0;
  /** Characters of deleted ids still in `chars` */
  private garbage = 0;
  /** Open addressing, linear probing: entry + 1, 0 for an empty bucket; a power of two long */
  private buckets = new Int32Array(0);
  /**
   * The buckets before the last growth, while their ids are moved to `buckets` (`MOVE_BUCKETS`
   * an add): every id is in one of the two. Null once all are moved.
   */
  private old: Int32Array | null = null;
  /** The next bucket of `old` to move */
  private moveAt = 0;
  /** Entries never handed out start here */
  private next = 0;
  /** Deleted entries, handed out again before new ones */
  private free: number[] = [];
  /** Ids held */
  size = 0;

  /** Bytes of the typed arrays held, for the memory tests. */
  get bytes(): number {
    return (
      this.start.byteLength +
      this.len.byteLength +
      this.hashes.byteLength +
      this.chars.byteLength +
      this.buckets.byteLength +
      (this.old?.byteLength ?? 0)
    );
  }

  /** The id's number, or −1 when the table does not hold it. */
  find(id: string): number {
    if (this.size === 0) return -1;
    const h = hash(id);
    const mask = this.buckets.length - 1;
    for (let b = h & mask; ; b = (b + 1) & mask) {
      const e = this.buckets[b] - 1;
      if (e < 0) break;
      if (this.hashes[e] === h && this.equals(e, id)) return e;
    }
    const old = this.old;
    if (old === null) return -1;
    const oldMask = old.length - 1;
    for (let b = h & oldMask; ; b = (b + 1) & oldMask) {
      const v = old[b];
      if (v === 0) return -1;
      if (v === GONE) continue;
      if (this.hashes[v - 1] === h && this.equals(v - 1, id)) return v - 1;
    }
  }

  /** Adds an id the table does not hold (see `find`) and gives its number. */
  add(id: string): number {
    const h = hash(id);
    let e = this.free.pop();
    if (e === undefined) {
      if (this.next === this.start.length) this.growEntries();
      e = this.next++;
    }
    this.write(e, id);
    this.hashes[e] = h;
    this.size++;
    if (this.old !== null) this.move(MOVE_BUCKETS);
    if (this.size * 2 > this.buckets.length) this.grow(Math.max(2 * FIRST, this.buckets.length * 2));
    this.place(e, h);
    return e;
  }

  /** Forgets the id numbered `e`; its number goes to a later `add`. */
  delete(e: number): void {
    if (!(this.start[e] >= 0)) return;
    if (!this.deleteFromBuckets(e)) {
      // Not moved yet: its bucket in the table being left is marked, so searches pass over it.
      const old = this.old!;
      const oldMask = old.length - 1;
      let b = this.hashes[e] & oldMask;
      while (old[b] !== e + 1) b = (b + 1) & oldMask;
      old[b] = GONE;
    }
    this.garbage += this.len[e];
    this.start[e] = -1;
    this.len[e] = 0;
    this.free.push(e);
    this.size--;
    if (this.garbage > 4096 && this.garbage * 2 > this.used) this.compactChars();
  }

  /** Takes entry `e` out of `buckets`; false when it is not there (still in `old`). */
  private deleteFromBuckets(e: number): boolean {
    const mask = this.buckets.length - 1;
    let b = this.hashes[e] & mask;
    for (; this.buckets[b] !== e + 1; b = (b + 1) & mask) if (this.buckets[b] === 0) return false;
    // Backward-shift deletion: later entries of the probe run move into the hole.
    for (let j = (b + 1) & mask; this.buckets[j] !== 0; j = (j + 1) & mask) {
      const home = this.hashes[this.buckets[j] - 1] & mask;
      // Entry at j may fill the hole at b when its home is not cyclically in (b, j].
      if ((j > b && (home <= b || home > j)) || (j < b && home <= b && home > j)) {
        this.buckets[b] = this.buckets[j];
        b = j;
      }
    }
    this.buckets[b] = 0;
    return true;
  }

  /** The id numbered `e` (a string made for the call), or undefined when none is. */
  text(e: number): string | undefined {
    if (e < 0 || e >= this.next || this.start[e] < 0) return undefined;
    const from = this.start[e];
    const to = from + this.len[e];
    let s = "";
    for (let at = from; at < to; at += 4096)
      s += String.fromCharCode.apply(
        null,
        this.chars.subarray(at, Math.min(to, at + 4096)) as unknown as number[],
      );
    return s;
  }

  /** Forgets every id and lets go of the arrays. */
  clear(): void {
    this.start = new Int32Array(0);
    this.len = new Int32Array(0);
    this.hashes = new Int32Array(0);
    this.chars = new Uint8Array(0);
    this.buckets = new Int32Array(0);
    this.old = null;
    this.moveAt = 0;
    this.used = this.garbage = this.next = this.size = 0;
    this.free = [];
  }

  private equals(e: number, id: string): boolean {
    if (this.len[e] !== id.length) return false;
    const c = this.chars;
    for (let i = 0, at = this.start[e]; i < id.length; i++, at++)
      if (c[at] !== id.charCodeAt(i)) return false;
    return true;
  }

  private place(e: number, h: number): void {
    const mask = this.buckets.length - 1;
    let b = h & mask;
    while (this.buckets[b] !== 0) b = (b + 1) & mask;
    this.buckets[b] = e + 1;
  }

  /**
   * Starts using `n` buckets: the ids in the current ones are moved over by the adds that follow
   * (`move`), not here. A growth while a move is under way (never, at MOVE_BUCKETS an add) ends
   * that move first.
   */
  private grow(n: number): void {
    if (this.old !== null) this.move(this.old.length);
    this.old = this.size > 1 ? this.buckets : null;
    this.moveAt = 0;
    this.buckets = new Int32Array(n);
  }

  /** Moves the ids of up to `count` buckets of `old` into `buckets`. */
  private move(count: number): void {
    const old = this.old!;
    const end = Math.min(old.length, this.moveAt + count);
    for (let b = this.moveAt; b < end; b++) {
      const v = old[b];
      if (v > 0) this.place(v - 1, this.hashes[v - 1]);
    }
    this.moveAt = end;
    if (end === old.length) this.old = null;
  }

  private growEntries(): void {
    const n = Math.max(FIRST, this.start.length * 2);
    const start = new Int32Array(n).fill(-1);
    start.set(this.start);
    const len = new Int32Array(n);
    len.set(this.len);
    const hashes = new Int32Array(n);
    hashes.set(this.hashes);
    this.start = start;
    this.len = len;
    this.hashes = hashes;
  }

  /** Writes the id's characters at the end of `chars`, widening or growing it as needed. */
  private write(e: number, id: string): void {
    let wide = this.chars instanceof Uint16Array;
    if (!wide) for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) > 0xff) wide = true;
    const need = this.used + id.length;
    if (wide !== this.chars instanceof Uint16Array || need > this.chars.length) {
      let n = Math.max(FIRST_CHARS, this.chars.length);
      while (n < need) n *= 2;
      const next = wide ? new Uint16Array(n) : new Uint8Array(n);
      next.set(this.chars.subarray(0, this.used));
      this.chars = next;
    }
    for (let i = 0; i < id.length; i++) this.chars[this.used + i] = id.charCodeAt(i);
    this.start[e] = this.used;
    this.len[e] = id.length;
    this.used = need;
  }

  /** Copies the live ids' characters to a new array, leaving the deleted ones' behind. */
  private compactChars(): void {
    const live = this.used - this.garbage;
    let n = FIRST_CHARS;
    while (n < live * 2) n *= 2;
    const next = this.chars instanceof Uint16Array ? new Uint16Array(n) : new Uint8Array(n);
    let at = 0;
    for (let e = 0; e < this.next; e++) {
      if (this.start[e] < 0) continue;
      next.set(this.chars.subarray(this.start[e], this.start[e] + this.len[e]), at);
      this.start[e] = at;
      at += this.len[e];
    }
    this.chars = next;
    this.used = at;
    this.garbage = 0;
  }
}

/** FNV-1a over the UTF-16 code units, mixed so that the low bits (the bucket) vary. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
