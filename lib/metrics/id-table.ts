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
 * Entries a page of the entry arrays holds (a power of two): the first page grows by doubling up
 * to it, then each growth adds a page, so no add copies or fills more than a page of entries
 * (growing by doubling copied them all: 131,072 of each array in one add, issue 31).
 */
const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;
const IN_PAGE = PAGE - 1;
/**
 * Characters a page of ids' characters holds: the first grows by doubling up to it, then each new
 * page is this long (an id longer than a page gets a page of its own). An id never spans two
 * pages; its place is packed as page × CHAR_PAGE + offset.
 */
const CHAR_BITS = 14;
const CHAR_PAGE = 1 << CHAR_BITS;
const IN_CHAR_PAGE = CHAR_PAGE - 1;
/**
 * Buckets of the table being left that one `add` moves into the new one. Growing moves the ids a
 * few at a time rather than all in the add that grows it (at 131,072 ids, one add placed them
 * all: tens of ms of an upload's main thread, issue 31). The old buckets are at most half full,
 * so a move takes some 8 ids, and they are gone well before the new table is half full.
 */
const MOVE_BUCKETS = 16;
/** A bucket of the table being left whose id was deleted: passed over by a search, never moved. */
const GONE = -1;
/**
 * Buckets a page of the bucket array holds (a power of two). A table of more buckets is pages, each
 * made when an id is first placed in it: growing makes no array of all the new buckets (a zeroed
 * array twice the old one, 1,048,576 buckets at the 262,145th id, in the add that grew it: a third
 * of a 49 ms slice of an aiperf upload's main thread, issue 31), and an add makes at most the pages
 * of the ids it places.
 */
const BUCKET_BITS = 12;
const BUCKET_PAGE = 1 << BUCKET_BITS;
const IN_BUCKET_PAGE = BUCKET_PAGE - 1;
/** Every page not yet written: all empty buckets, shared, never written to. */
const UNWRITTEN = new Int32Array(BUCKET_PAGE);

/** Open-addressing buckets, `length` of them (a power of two), in pages made when first written. */
class Buckets {
  private readonly pages: Int32Array[];

  constructor(readonly length: number) {
    // One page of `length` for a small table; else `length / BUCKET_PAGE` references to one page.
    this.pages =
      length <= BUCKET_PAGE
        ? [new Int32Array(length)]
        : new Array<Int32Array>(length >>> BUCKET_BITS).fill(UNWRITTEN);
  }

  get(b: number): number {
    return this.pages[b >>> BUCKET_BITS][b & IN_BUCKET_PAGE];
  }

  set(b: number, v: number): void {
    let page = this.pages[b >>> BUCKET_BITS];
    if (page === UNWRITTEN) page = this.pages[b >>> BUCKET_BITS] = new Int32Array(BUCKET_PAGE);
    page[b & IN_BUCKET_PAGE] = v;
  }

  get bytes(): number {
    let n = 0;
    for (const p of this.pages) if (p !== UNWRITTEN) n += p.byteLength;
    return n;
  }
}

type Chars = Uint8Array | Uint16Array;

export class IdTable {
  /** Each entry's first character (page × CHAR_PAGE + offset), −1 for a free entry; in pages */
  private start: Int32Array[] = [];
  /** Each entry's length in characters; in pages */
  private len: Int32Array[] = [];
  /** Each entry's hash; in pages */
  private hashes: Int32Array[] = [];
  /** Entries the pages hold */
  private capacity = 0;
  /** Characters of every id, one after the other, in pages */
  private chars: Chars[] = [];
  /** Whether the pages of characters are two bytes a character (from the first id that is not Latin-1) */
  private wide = false;
  /** Characters written to the last page */
  private pageUsed = 0;
  /** Characters written in all */
  private used = 0;
  /** Characters of deleted ids still in `chars` */
  private garbage = 0;
  /** Open addressing, linear probing: entry + 1, 0 for an empty bucket; a power of two long */
  private buckets = new Buckets(0);
  /**
   * The buckets before the last growth, while their ids are moved to `buckets` (`MOVE_BUCKETS`
   * an add): every id is in one of the two. Null once all are moved.
   */
  private old: Buckets | null = null;
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
    let n = this.buckets.bytes + (this.old?.bytes ?? 0);
    for (const pages of [this.start, this.len, this.hashes, this.chars])
      for (const p of pages) n += p.byteLength;
    return n;
  }

  private hashOf(e: number): number {
    return this.hashes[e >>> PAGE_BITS][e & IN_PAGE];
  }

  private startOf(e: number): number {
    return this.start[e >>> PAGE_BITS][e & IN_PAGE];
  }

  private lenOf(e: number): number {
    return this.len[e >>> PAGE_BITS][e & IN_PAGE];
  }

  /** The id's number, or −1 when the table does not hold it. */
  find(id: string): number {
    if (this.size === 0) return -1;
    const h = hash(id);
    const mask = this.buckets.length - 1;
    for (let b = h & mask; ; b = (b + 1) & mask) {
      const e = this.buckets.get(b) - 1;
      if (e < 0) break;
      if (this.hashOf(e) === h && this.equals(e, id)) return e;
    }
    const old = this.old;
    if (old === null) return -1;
    const oldMask = old.length - 1;
    for (let b = h & oldMask; ; b = (b + 1) & oldMask) {
      const v = old.get(b);
      if (v === 0) return -1;
      if (v === GONE) continue;
      if (this.hashOf(v - 1) === h && this.equals(v - 1, id)) return v - 1;
    }
  }

  /** Adds an id the table does not hold (see `find`) and gives its number. */
  add(id: string): number {
    const h = hash(id);
    let e = this.free.pop();
    if (e === undefined) {
      if (this.next === this.capacity) this.growEntries();
      e = this.next++;
    }
    this.write(e, id);
    this.hashes[e >>> PAGE_BITS][e & IN_PAGE] = h;
    this.size++;
    if (this.old !== null) this.move(MOVE_BUCKETS);
    if (this.size * 2 > this.buckets.length) this.grow(Math.max(2 * FIRST, this.buckets.length * 2));
    this.place(e, h);
    return e;
  }

  /** Forgets the id numbered `e`; its number goes to a later `add`. */
  delete(e: number): void {
    if (!(e >= 0 && e < this.next && this.startOf(e) >= 0)) return;
    if (!this.deleteFromBuckets(e)) {
      // Not moved yet: its bucket in the table being left is marked, so searches pass over it.
      const old = this.old!;
      const oldMask = old.length - 1;
      let b = this.hashOf(e) & oldMask;
      while (old.get(b) !== e + 1) b = (b + 1) & oldMask;
      old.set(b, GONE);
    }
    this.garbage += this.lenOf(e);
    this.start[e >>> PAGE_BITS][e & IN_PAGE] = -1;
    this.len[e >>> PAGE_BITS][e & IN_PAGE] = 0;
    this.free.push(e);
    this.size--;
    if (this.garbage > 4096 && this.garbage * 2 > this.used) this.compactChars();
  }

  /** Takes entry `e` out of `buckets`; false when it is not there (still in `old`). */
  private deleteFromBuckets(e: number): boolean {
    const mask = this.buckets.length - 1;
    let b = this.hashOf(e) & mask;
    const buckets = this.buckets;
    for (; buckets.get(b) !== e + 1; b = (b + 1) & mask) if (buckets.get(b) === 0) return false;
    // Backward-shift deletion: later entries of the probe run move into the hole.
    for (let j = (b + 1) & mask; buckets.get(j) !== 0; j = (j + 1) & mask) {
      const home = this.hashOf(buckets.get(j) - 1) & mask;
      // Entry at j may fill the hole at b when its home is not cyclically in (b, j].
      if ((j > b && (home <= b || home > j)) || (j < b && home <= b && home > j)) {
        buckets.set(b, buckets.get(j));
        b = j;
      }
    }
    buckets.set(b, 0);
    return true;
  }

  /** The id numbered `e` (a string made for the call), or undefined when none is. */
  text(e: number): string | undefined {
    if (e < 0 || e >= this.next || this.startOf(e) < 0) return undefined;
    return textOf(this.chars, this.startOf(e), this.lenOf(e));
  }

  /** Forgets every id and lets go of the arrays. */
  clear(): void {
    this.start = [];
    this.len = [];
    this.hashes = [];
    this.chars = [];
    this.wide = false;
    this.buckets = new Buckets(0);
    this.old = null;
    this.moveAt = 0;
    this.capacity = this.pageUsed = this.used = this.garbage = this.next = this.size = 0;
    this.free = [];
  }

  private equals(e: number, id: string): boolean {
    if (this.lenOf(e) !== id.length) return false;
    const at0 = this.startOf(e);
    const c = this.chars[at0 >>> CHAR_BITS];
    for (let i = 0, at = at0 & IN_CHAR_PAGE; i < id.length; i++, at++)
      if (c[at] !== id.charCodeAt(i)) return false;
    return true;
  }

  private place(e: number, h: number): void {
    const buckets = this.buckets;
    const mask = buckets.length - 1;
    let b = h & mask;
    while (buckets.get(b) !== 0) b = (b + 1) & mask;
    buckets.set(b, e + 1);
  }

  /**
   * Starts using `n` buckets: the ids in the current ones are moved over by the adds that follow
   * (`move`), not here, and their pages are made as ids are placed in them (`Buckets`). A growth
   * while a move is under way (never, at MOVE_BUCKETS an add) ends that move first.
   */
  private grow(n: number): void {
    if (this.old !== null) this.move(this.old.length);
    this.old = this.size > 1 ? this.buckets : null;
    this.moveAt = 0;
    this.buckets = new Buckets(n);
  }

  /** Moves the ids of up to `count` buckets of `old` into `buckets`. */
  private move(count: number): void {
    const old = this.old!;
    const end = Math.min(old.length, this.moveAt + count);
    for (let b = this.moveAt; b < end; b++) {
      const v = old.get(b);
      if (v > 0) this.place(v - 1, this.hashOf(v - 1));
    }
    this.moveAt = end;
    if (end === old.length) this.old = null;
  }

  /** Room for more entries: the first page doubled (up to PAGE entries), or one more page. */
  private growEntries(): void {
    if (this.capacity < PAGE) {
      const n = Math.max(FIRST, this.capacity * 2);
      const start = new Int32Array(n).fill(-1);
      const len = new Int32Array(n);
      const hashes = new Int32Array(n);
      if (this.capacity > 0) {
        start.set(this.start[0]);
        len.set(this.len[0]);
        hashes.set(this.hashes[0]);
      }
      this.start = [start];
      this.len = [len];
      this.hashes = [hashes];
      this.capacity = n;
      return;
    }
    this.start.push(new Int32Array(PAGE).fill(-1));
    this.len.push(new Int32Array(PAGE));
    this.hashes.push(new Int32Array(PAGE));
    this.capacity += PAGE;
  }

  /**
   * Writes the id's characters after the last id's, in the last page when they fit: the first
   * page doubled up to CHAR_PAGE characters, or a new page. The first id that is not Latin-1
   * widens every page to two bytes a character (once in a table's life).
   */
  private write(e: number, id: string): void {
    if (!this.wide) for (let i = 0; i < id.length; i++) if (id.charCodeAt(i) > 0xff) this.widen();
    const make = (n: number): Chars => (this.wide ? new Uint16Array(n) : new Uint8Array(n));
    const last = this.chars.length - 1;
    let page = last >= 0 ? this.chars[last] : null;
    const need = this.pageUsed + id.length;
    // An offset is below CHAR_PAGE (an empty id too): a page written to its end takes no more.
    if (page === null || need > page.length || this.pageUsed >= CHAR_PAGE) {
      if (page !== null && last === 0 && page.length < CHAR_PAGE && need <= CHAR_PAGE) {
        let n = page.length;
        while (n < need) n = Math.min(CHAR_PAGE, n * 2);
        const grown = make(n);
        grown.set(page.subarray(0, this.pageUsed));
        this.chars[0] = page = grown;
      } else {
        page = make(page === null ? Math.max(FIRST_CHARS, id.length) : Math.max(CHAR_PAGE, id.length));
        this.chars.push(page);
        this.pageUsed = 0;
      }
    }
    for (let i = 0; i < id.length; i++) page[this.pageUsed + i] = id.charCodeAt(i);
    this.start[e >>> PAGE_BITS][e & IN_PAGE] = (this.chars.length - 1) * CHAR_PAGE + this.pageUsed;
    this.len[e >>> PAGE_BITS][e & IN_PAGE] = id.length;
    this.pageUsed += id.length;
    this.used += id.length;
  }

  /** Two bytes a character from now on: every page copied wide. */
  private widen(): void {
    this.wide = true;
    this.chars = this.chars.map((p) => Uint16Array.from(p));
  }

  /** Copies the live ids' characters to new pages, leaving the deleted ones' behind. */
  private compactChars(): void {
    const pages = this.chars;
    this.chars = [];
    this.pageUsed = this.used = this.garbage = 0;
    for (let e = 0; e < this.next; e++) {
      const at = this.startOf(e);
      if (at >= 0) this.write(e, textOf(pages, at, this.lenOf(e)));
    }
  }
}

/** The `len` characters at `at` (page × CHAR_PAGE + offset) of `pages`, as a string. */
function textOf(pages: readonly Chars[], at: number, len: number): string {
  if (len === 0) return "";
  const page = pages[at >>> CHAR_BITS];
  const from = at & IN_CHAR_PAGE;
  const to = from + len;
  let s = "";
  for (let i = from; i < to; i += 4096)
    s += String.fromCharCode.apply(null, page.subarray(i, Math.min(to, i + 4096)) as unknown as number[]);
  return s;
}

/** FNV-1a over the UTF-16 code units, mixed so that the low bits (the bucket) vary. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 12);
}
