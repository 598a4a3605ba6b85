/**
 * An incremental JSON tokenizer: bytes in, in chunks of any size, events out, so a document of
 * any length is read in the memory of its largest string or number. It accepts exactly what
 * `JSON.parse` accepts, plus the NaN / Infinity / -Infinity literals Python's json module
 * writes, which it reads as null (as `parseJsonText` does). A leading UTF-8 byte order mark is
 * skipped. Scalars arrive as the values `JSON.parse` would give: a number as the correctly
 * rounded double of its text (what `Number` gives), a string decoded from UTF-8 with its escapes.
 * Syntax errors throw a JsonSyntaxError that names the byte offset into the document.
 *
 * It reads bytes, not text: a token that ends in the chunk it began in is scanned in place, a
 * short member name that repeats (every timeslice of an export has the same ones) is decoded
 * once and handed out again, most numbers are computed from their digits, and a subtree the
 * handler does not want is checked without decoding anything or raising its events.
 */

export interface JsonTokenHandler {
  beginObject(): void;
  endObject(): void;
  beginArray(): void;
  endArray(): void;
  /** An object member's name; its value's events follow. */
  key(name: string): void;
  scalar(value: string | number | boolean | null): void;
  /**
   * Optional: whether the next member name (`wantsKey`) or value (`wantsValue`) is read. A name
   * or string not read is still checked but not decoded, and arrives as "". An object or array
   * not read is checked to its end but raises no event at all, so skipping a subtree costs one
   * pass over its bytes. Numbers and literals always arrive.
   */
  wantsKey?(): boolean;
  wantsValue?(): boolean;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    /** Offset into the document's bytes (a leading byte order mark counted). */
    readonly offset: number,
    /** The bytes ended before the document did: a file cut off, not one written wrong. */
    readonly truncated = false,
  ) {
    super(`${message} at byte ${offset}`);
    this.name = "JsonSyntaxError";
  }
}

// What the next significant byte may be.
const VALUE = 0; // a value (after `:` or `,` in an array, or at the top)
const VALUE_OR_CLOSE = 1; // right after `[`
const KEY = 2; // a member name (after `,` in an object)
const KEY_OR_CLOSE = 3; // right after `{`
const COLON = 4;
const AFTER_VALUE = 5; // `,` or the container's close
const DONE = 6; // only whitespace may follow the top-level value
// Inside a token that continues into the next chunk.
const IN_STRING = 7;
const IN_NUMBER = 8;
const IN_LITERAL = 9;

const BOM = [0xef, 0xbb, 0xbf];

const IN_OBJECT = 1;
const IN_ARRAY = 2;

// Where a string's escape stands: none, right after `\`, or 4..1 hex digits of `\u` still due.
const NO_ESCAPE = 0;
const AFTER_BACKSLASH = 5;

/** Exact powers of ten: a double holds 10^k exactly up to k = 22. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

type Slicer = {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
};
const latin1 = (b: Buffer, start: number, end: number) => (b as unknown as Slicer).latin1Slice(start, end);
const utf8 = (b: Buffer, start: number, end: number) => (b as unknown as Slicer).utf8Slice(start, end);

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** 5^k, exact. */
const POW5 = [1, 5, 25, 125, 625, 3125];
const TWO_26 = 2 ** 26;

/**
 * The integer of 16 to 20 digits `b[start, end)`, correctly rounded. Its first 15 digits `m`
 * and the other k `r` are exact, and so is each part of m·10^k + r = mh·5^k·2^(26+k) +
 * (ml·5^k·2^k + r) with m = mh·2^26 + ml (every product stays below 2^53): adding the two exact
 * parts is the one rounding, as `Number` rounds the text. No division per digit.
 */
function wideInteger(b: Buffer, start: number, end: number): number {
  const split = start + 15;
  let m = 0;
  for (let i = start; i < split; i++) m = m * 10 + (b[i] - 0x30);
  let r = 0;
  for (let i = split; i < end; i++) r = r * 10 + (b[i] - 0x30);
  const k = end - split;
  const p5 = POW5[k];
  const mh = Math.floor(m / TWO_26);
  const ml = m - mh * TWO_26;
  return mh * p5 * 2 ** (26 + k) + (ml * p5 * 2 ** k + r);
}

/**
 * The value of a JSON number's bytes, or NaN when they are not one (the grammar is checked
 * here). Two cases are computed from the digits, each in one correctly rounded operation, so
 * the result is the double `Number` gives:
 * - up to 15 significant digits and no exponent: the digits as an integer (exact below 2^53)
 *   divided by an exact power of ten (Clinger's fast path);
 * - an integer of up to 20 digits (aiperf's nanosecond clocks have 19): see `wideInteger`.
 * Anything else goes through `Number` of its text.
 */
export function numberAt(b: Buffer, start: number, end: number): number {
  let i = start;
  const negative = b[i] === 0x2d;
  if (negative) i++;
  if (i === end) return NaN;
  const intStart = i;
  let m = 0;
  let digits = 0;
  if (b[i] === 0x30) {
    i++;
    if (i < end && isDigit(b[i])) return NaN; // a leading zero
  } else
    for (; i < end; i++) {
      const c = b[i];
      if (c < 0x30 || c > 0x39) break;
      m = m * 10 + (c - 0x30);
      digits++;
    }
  if (i === intStart) return NaN; // no integer digit
  if (i === end) {
    if (digits <= 15) return negative ? -m : m;
    if (digits <= 20) {
      const v = wideInteger(b, intStart, end);
      return negative ? -v : v;
    }
    return Number(latin1(b, start, end));
  }
  let fraction = 0;
  if (b[i] === 0x2e) {
    i++;
    const from = i;
    for (; i < end; i++) {
      const c = b[i];
      if (c < 0x30 || c > 0x39) break;
      m = m * 10 + (c - 0x30);
      digits++;
    }
    fraction = i - from;
    if (fraction === 0) return NaN;
  }
  if (i === end) {
    if (digits <= 15) {
      const v = m / POW10[fraction];
      return negative ? -v : v;
    }
    return Number(latin1(b, start, end));
  }
  if (b[i] !== 0x65 && b[i] !== 0x45) return NaN;
  i++;
  if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) i++;
  const expFrom = i;
  while (i < end && isDigit(b[i])) i++;
  if (i === expFrom || i !== end) return NaN;
  return Number(latin1(b, start, end));
}

/** Whether `b[start, end)` is a JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
function isNumberText(b: Buffer, start: number, end: number): boolean {
  let i = start;
  if (i < end && b[i] === 0x2d) i++;
  if (i === end) return false;
  if (b[i] === 0x30) i++;
  else if (isDigit(b[i])) while (i < end && isDigit(b[i])) i++;
  else return false;
  if (i < end && b[i] === 0x2e) {
    i++;
    const from = i;
    while (i < end && isDigit(b[i])) i++;
    if (i === from) return false;
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    const from = i;
    while (i < end && isDigit(b[i])) i++;
    if (i === from) return false;
  }
  return i === end;
}

/** Bytes that may continue a number token: digits, `+ - . e E`. */
function isNumberByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

/** The escapes JSON has after `\`: `" \ / b f n r t u`. */
function isEscapeByte(c: number): boolean {
  return (
    c === 0x22 ||
    c === 0x5c ||
    c === 0x2f ||
    c === 0x62 ||
    c === 0x66 ||
    c === 0x6e ||
    c === 0x72 ||
    c === 0x74 ||
    c === 0x75
  );
}

function describe(c: number): string {
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, "0")}`;
}

/**
 * Member names decoded once: a short name's bytes hash to a slot that keeps the last name seen
 * there, and a name whose bytes match is handed out again instead of decoded. An export repeats
 * a few dozen names millions of times; a name that does not repeat only costs its slot.
 */
const NAME_SLOTS = 1024;
const NAME_MAX_BYTES = 32;

class NameCache {
  private readonly bytes = new Uint8Array(NAME_SLOTS * NAME_MAX_BYTES);
  private readonly lengths = new Int32Array(NAME_SLOTS).fill(-1);
  private readonly names: string[] = new Array<string>(NAME_SLOTS).fill("");

  /** The name in `b[start, end)` (no escapes), decoded from UTF-8. */
  get(b: Buffer, start: number, end: number): string {
    const length = end - start;
    if (length > NAME_MAX_BYTES) return utf8(b, start, end);
    let h = length;
    for (let i = start; i < end; i++) h = Math.imul(h ^ b[i], 0x01000193);
    const slot = (h >>> 0) & (NAME_SLOTS - 1);
    const at = slot * NAME_MAX_BYTES;
    const kept = this.bytes;
    if (this.lengths[slot] === length) {
      let same = true;
      for (let k = 0; k < length; k++)
        if (kept[at + k] !== b[start + k]) {
          same = false;
          break;
        }
      if (same) return this.names[slot];
    }
    const name = utf8(b, start, end);
    for (let k = 0; k < length; k++) kept[at + k] = b[start + k];
    this.lengths[slot] = length;
    this.names[slot] = name;
    return name;
  }
}

export class JsonTokenizer {
  private state = VALUE;
  /** The containers open, innermost at `depth - 1`. */
  private stack = new Uint8Array(64);
  private depth = 0;
  /**
   * How many of the innermost open containers are skipped (the handler did not want the
   * outermost of them): no events are raised inside.
   */
  private skipped = 0;
  /** Bytes of the document before the current chunk. */
  private consumed = 0;
  /** Bytes of a leading byte order mark seen so far; 3 once the document has begun. */
  private bomMatched = 0;
  // The token in progress across chunks: its offset in the document, the bytes carried from
  // earlier chunks, and for strings whether it is a key, is read, has escapes and where the
  // escape it ends in stands.
  private tokenOffset = 0;
  private carried: Buffer[] = [];
  private stringIsKey = false;
  private stringWanted = true;
  private stringEscaped = false;
  private escape = NO_ESCAPE;
  private readonly names = new NameCache();

  constructor(private readonly handler: JsonTokenHandler) {}

  write(input: Buffer): void {
    let chunk = input;
    // A byte order mark, possibly cut across chunks, is skipped at the very start.
    while (this.bomMatched < 3 && chunk.length > 0 && chunk[0] === BOM[this.bomMatched]) {
      chunk = chunk.subarray(1);
      this.consumed++;
      this.bomMatched++;
    }
    if (chunk.length > 0) this.bomMatched = 3;
    const n = chunk.length;
    let i = 0;
    if (this.state >= IN_STRING) i = this.continueToken(chunk);
    while (i < n) {
      const c = chunk[i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
        continue;
      }
      switch (this.state) {
        case VALUE:
        case VALUE_OR_CLOSE:
          if (c === 0x5d && this.state === VALUE_OR_CLOSE) {
            this.close(IN_ARRAY, i);
            i++;
          } else i = this.value(chunk, i, c);
          break;
        case KEY:
        case KEY_OR_CLOSE:
          if (c === 0x22) i = this.string(chunk, i, true);
          else if (c === 0x7d && this.state === KEY_OR_CLOSE) {
            this.close(IN_OBJECT, i);
            i++;
          } else throw this.error(`expected a member name, found ${describe(c)}`, i);
          break;
        case COLON:
          if (c !== 0x3a) throw this.error(`expected ':', found ${describe(c)}`, i);
          this.state = VALUE;
          i++;
          break;
        case AFTER_VALUE: {
          const top = this.stack[this.depth - 1];
          if (c === 0x2c) this.state = top === IN_OBJECT ? KEY : VALUE;
          else if (c === 0x7d && top === IN_OBJECT) this.close(IN_OBJECT, i);
          else if (c === 0x5d && top === IN_ARRAY) this.close(IN_ARRAY, i);
          else
            throw this.error(`expected ',' or '${top === IN_OBJECT ? "}" : "]"}', found ${describe(c)}`, i);
          i++;
          break;
        }
        default: // DONE
          throw this.error(`unexpected ${describe(c)} after the end of the document`, i);
      }
    }
    this.consumed += n;
  }

  /** The document has ended: throws unless it held one complete value. */
  end(): void {
    if (this.state === IN_NUMBER || this.state === IN_LITERAL) {
      const bytes = this.takeCarried(Buffer.alloc(0), 0);
      if (this.state === IN_NUMBER) this.number(bytes, 0, bytes.length);
      else this.literal(bytes, 0, bytes.length);
    }
    if (this.state !== DONE) {
      const what = this.state === IN_STRING ? "inside a string" : `with ${this.depth} open containers`;
      throw new JsonSyntaxError(`the document ends ${what} (truncated?)`, this.consumed, true);
    }
  }

  private error(message: string, i: number): JsonSyntaxError {
    return new JsonSyntaxError(message, this.consumed + i);
  }

  /** A value begins at `i` with byte `c`; returns where scanning goes on. */
  private value(chunk: Buffer, i: number, c: number): number {
    if (c === 0x7b || c === 0x5b) {
      const kind = c === 0x7b ? IN_OBJECT : IN_ARRAY;
      this.open(kind);
      return i + 1;
    }
    if (c === 0x22) return this.string(chunk, i, false);
    this.tokenOffset = this.consumed + i;
    const n = chunk.length;
    if (c === 0x2d || isDigit(c)) {
      let j = i + 1;
      while (j < n && isNumberByte(chunk[j])) j++;
      if (j < n && chunk[j] === 0x49 && j === i + 1 && c === 0x2d) {
        // "-Infinity" starts like a number; the letters tell them apart.
        while (j < n && isLetter(chunk[j])) j++;
        if (j === n) return this.carryFrom(chunk, i, IN_LITERAL);
        this.literal(chunk, i, j);
        return j;
      }
      if (j === n) return this.carryFrom(chunk, i, IN_NUMBER);
      this.number(chunk, i, j);
      return j;
    }
    if (isLetter(c)) {
      let j = i + 1;
      while (j < n && isLetter(chunk[j])) j++;
      if (j === n) return this.carryFrom(chunk, i, IN_LITERAL);
      this.literal(chunk, i, j);
      return j;
    }
    throw this.error(`expected a value, found ${describe(c)}`, i);
  }

  private open(kind: number): void {
    if (this.depth === this.stack.length) {
      const grown = new Uint8Array(this.stack.length * 2);
      grown.set(this.stack);
      this.stack = grown;
    }
    this.stack[this.depth++] = kind;
    this.state = kind === IN_OBJECT ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
    if (this.skipped > 0) this.skipped++;
    else if (this.handler.wantsValue?.() === false) this.skipped = 1;
    else if (kind === IN_OBJECT) this.handler.beginObject();
    else this.handler.beginArray();
  }

  private close(kind: number, i: number): void {
    if (this.depth === 0 || this.stack[this.depth - 1] !== kind) throw this.error("mismatched close", i);
    this.depth--;
    this.state = this.depth === 0 ? DONE : AFTER_VALUE;
    if (this.skipped > 0) this.skipped--;
    else if (kind === IN_OBJECT) this.handler.endObject();
    else this.handler.endArray();
  }

  /** A string (a member name when `isKey`) opens at `i`. */
  private string(chunk: Buffer, i: number, isKey: boolean): number {
    this.tokenOffset = this.consumed + i;
    this.stringIsKey = isKey;
    this.stringWanted =
      this.skipped === 0 &&
      (isKey ? (this.handler.wantsKey?.() ?? true) : (this.handler.wantsValue?.() ?? true));
    const n = chunk.length;
    let j = i + 1;
    // The common case: no escape before the closing quote, in this chunk.
    for (; j < n; j++) {
      const c = chunk[j];
      if (c === 0x22) {
        this.stringEscaped = false;
        this.stringDone(chunk, i + 1, j);
        return j + 1;
      }
      if (c === 0x5c) break;
      if (c < 0x20) throw this.error("unescaped control character in a string", j);
    }
    this.stringEscaped = j < n;
    this.escape = NO_ESCAPE;
    this.state = IN_STRING;
    return this.scanString(chunk, i, j);
  }

  /**
   * Scans a string in progress from `from`; `tokenStart` is where it began in this chunk (its
   * quote), or -1 when it began in an earlier one.
   */
  private scanString(chunk: Buffer, tokenStart: number, from: number): number {
    const n = chunk.length;
    let escape = this.escape;
    for (let j = from; j < n; j++) {
      const c = chunk[j];
      if (escape === NO_ESCAPE) {
        if (c === 0x22) {
          if (!this.stringWanted) {
            // Checked and not read: nothing to decode, nor to keep.
            this.carried = [];
            this.stringDone(chunk, 0, 0);
          } else if (tokenStart >= 0 && this.carried.length === 0) {
            if (this.stringEscaped) this.stringDoneEscaped(chunk.subarray(tokenStart, j + 1));
            else this.stringDone(chunk, tokenStart + 1, j);
          } else {
            const bytes = this.takeCarried(chunk, j + 1, tokenStart);
            if (this.stringEscaped) this.stringDoneEscaped(bytes);
            else this.stringDone(bytes, 1, bytes.length - 1);
          }
          return j + 1;
        }
        if (c === 0x5c) {
          escape = AFTER_BACKSLASH;
          this.stringEscaped = true;
        } else if (c < 0x20) throw this.error("unescaped control character in a string", j);
      } else if (escape === AFTER_BACKSLASH) {
        if (!isEscapeByte(c)) throw new JsonSyntaxError("bad escape in a string", this.tokenOffset);
        escape = c === 0x75 ? 4 : NO_ESCAPE;
      } else {
        if (!isHex(c)) throw new JsonSyntaxError("bad escape in a string", this.tokenOffset);
        escape--;
      }
    }
    this.escape = escape;
    // The string goes on in the next chunk; only a string that is read keeps its bytes.
    if (this.stringWanted) this.carried.push(Buffer.from(chunk.subarray(tokenStart >= 0 ? tokenStart : 0)));
    return n;
  }

  private stringDone(b: Buffer, start: number, end: number): void {
    if (this.stringIsKey) {
      this.state = COLON;
      if (this.skipped === 0) this.handler.key(this.stringWanted ? this.names.get(b, start, end) : "");
    } else if (this.skipped === 0) this.scalarDone(this.stringWanted ? utf8(b, start, end) : "");
    else this.state = AFTER_VALUE;
  }

  /** A string with escapes, quotes included: JSON.parse decodes them (they were checked). */
  private stringDoneEscaped(bytes: Buffer): void {
    let text: string;
    try {
      text = JSON.parse(bytes.toString("utf8")) as string;
    } catch {
      throw new JsonSyntaxError("bad escape in a string", this.tokenOffset);
    }
    if (this.stringIsKey) {
      this.state = COLON;
      this.handler.key(text);
    } else this.scalarDone(text);
  }

  /** Keeps a number or literal begun at `i` for the next chunk. */
  private carryFrom(chunk: Buffer, i: number, state: number): number {
    this.carried.push(Buffer.from(chunk.subarray(i)));
    this.state = state;
    return chunk.length;
  }

  /** Goes on with the token a previous chunk ended in; returns where scanning goes on. */
  private continueToken(chunk: Buffer): number {
    const n = chunk.length;
    if (this.state === IN_STRING) return this.scanString(chunk, -1, 0);
    let j = 0;
    if (this.state === IN_NUMBER) {
      while (j < n && isNumberByte(chunk[j])) j++;
      if (j < n && chunk[j] === 0x49 && this.carriedLength() + j === 1) {
        // "-" then "Infinity" across a chunk boundary.
        this.state = IN_LITERAL;
        return this.continueToken(chunk);
      }
      if (j === n) {
        this.carried.push(Buffer.from(chunk));
        return n;
      }
      const bytes = this.takeCarried(chunk, j);
      this.number(bytes, 0, bytes.length);
      return j;
    }
    while (j < n && isLetter(chunk[j])) j++;
    if (j === n) {
      this.carried.push(Buffer.from(chunk));
      return n;
    }
    const bytes = this.takeCarried(chunk, j);
    this.literal(bytes, 0, bytes.length);
    return j;
  }

  private carriedLength(): number {
    let bytes = 0;
    for (const b of this.carried) bytes += b.length;
    return bytes;
  }

  /** The carried bytes and this chunk's from `from` (0: the token began earlier) to `end`. */
  private takeCarried(chunk: Buffer, end: number, from = 0): Buffer {
    const all = Buffer.concat([...this.carried, chunk.subarray(Math.max(0, from), end)]);
    this.carried = [];
    return all;
  }

  private number(b: Buffer, start: number, end: number): void {
    // A number inside a skipped subtree is only checked.
    const value = this.skipped === 0 ? numberAt(b, start, end) : isNumberText(b, start, end) ? 0 : NaN;
    if (Number.isNaN(value))
      throw new JsonSyntaxError(
        `bad number '${latin1(b, start, Math.min(end, start + 40))}'`,
        this.tokenOffset,
      );
    if (this.skipped === 0) this.scalarDone(value);
    else this.state = AFTER_VALUE;
  }

  private literal(b: Buffer, start: number, end: number): void {
    const length = end - start;
    let value: boolean | null;
    const c = b[start];
    if (length === 4 && c === 0x74 && b[start + 1] === 0x72 && b[start + 2] === 0x75 && b[start + 3] === 0x65)
      value = true;
    else if (
      length === 4 &&
      c === 0x6e &&
      b[start + 1] === 0x75 &&
      b[start + 2] === 0x6c &&
      b[start + 3] === 0x6c
    )
      value = null;
    else {
      const text = latin1(b, start, end);
      if (text === "false") value = false;
      else if (text === "null" || text === "NaN" || text === "Infinity" || text === "-Infinity") value = null;
      else throw new JsonSyntaxError(`unknown literal '${text.slice(0, 40)}'`, this.tokenOffset);
    }
    if (this.skipped === 0) this.scalarDone(value);
    else this.state = AFTER_VALUE;
  }

  private scalarDone(value: string | number | boolean | null): void {
    this.state = this.depth === 0 ? DONE : AFTER_VALUE;
    this.handler.scalar(value);
  }
}
