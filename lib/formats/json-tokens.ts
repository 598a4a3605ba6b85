/**
 * An incremental JSON tokenizer: bytes in, in chunks of any size, events out, so a document of
 * any length is read in the memory of its largest string or number. It accepts exactly what
 * `JSON.parse` accepts, plus the NaN / Infinity / -Infinity literals Python's json module
 * writes, which it reads as null (as `parseJsonText` does). A leading UTF-8 byte order mark is
 * skipped. Scalars arrive as the values `JSON.parse` would give: a number through `Number` of
 * its text (the same correctly rounded double), a string decoded from UTF-8 with its escapes.
 * Syntax errors throw a JsonSyntaxError that names the byte offset into the document.
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
   * Optional: whether the next member name (`wantsKey`) or scalar (`wantsValue`) is read. When
   * not, it is still checked but not decoded, and arrives as "" or null: skipping a subtree then
   * costs no strings.
   */
  wantsKey?(): boolean;
  wantsValue?(): boolean;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    /** Offset into the document's bytes (a leading byte order mark counted). */
    readonly offset: number,
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
// Inside a token that may continue into the next chunk.
const IN_STRING = 7;
const IN_NUMBER = 8;
const IN_LITERAL = 9;

const BOM = [0xef, 0xbb, 0xbf];

const IN_OBJECT = 1;
const IN_ARRAY = 2;

const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** Exact powers of ten: a double holds 10^k exactly up to k = 22. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));

type Slicer = {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
};
const latin1 = (b: Buffer, start: number, end: number) => (b as unknown as Slicer).latin1Slice(start, end);
const utf8 = (b: Buffer, start: number, end: number) => (b as unknown as Slicer).utf8Slice(start, end);

/**
 * The value of a JSON number's bytes, or NaN when they are not one. Numbers of up to 15
 * significant digits with no exponent are computed here: the digits as an integer (exact below
 * 2^53) divided by an exact power of ten is one correctly rounded operation, so the result is the
 * double `Number` gives (Clinger's fast path). Anything else goes through `Number`.
 */
export function numberAt(b: Buffer, start: number, end: number): number {
  let i = start;
  const negative = b[i] === 0x2d;
  if (negative) i++;
  if (i === end) return NaN;
  let m = 0;
  let digits = 0;
  let fraction = 0;
  if (b[i] === 0x30) {
    i++;
    if (i < end && b[i] >= 0x30 && b[i] <= 0x39) return NaN; // a leading zero
  } else
    for (; i < end; i++) {
      const c = b[i];
      if (c < 0x30 || c > 0x39) break;
      m = m * 10 + (c - 0x30);
      digits++;
    }
  if (i === start + (negative ? 1 : 0)) return NaN; // no integer digit
  if (i < end && b[i] === 0x2e) {
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
  if (i === end && digits <= 15) {
    const v = fraction === 0 ? m : m / POW10[fraction];
    return negative ? -v : v;
  }
  const text = latin1(b, start, end);
  return NUMBER_TEXT.test(text) ? Number(text) : NaN;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Bytes that may continue a number token: digits, `+ - . e E`. */
function isNumberByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function describe(c: number): string {
  return c >= 0x20 && c < 0x7f ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, "0")}`;
}

export class JsonTokenizer {
  private state = VALUE;
  /** The containers open, innermost last. */
  private readonly stack: number[] = [];
  /** Bytes of the document before the current chunk. */
  private consumed = 0;
  /** Bytes of a leading byte order mark seen so far; 3 once the document has begun. */
  private bomMatched = 0;
  // The token in progress: where it starts in the current chunk (-1: in an earlier chunk), the
  // bytes carried from earlier chunks, and for strings whether it is a key and has escapes.
  private tokenStart = -1;
  private tokenOffset = 0;
  private carried: Buffer[] = [];
  private stringIsKey = false;
  private stringEscaped = false;
  private escapeNext = false;

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
    if (this.state >= IN_STRING) i = this.continueToken(chunk, 0);
    while (i < n) {
      const c = chunk[i];
      if (isSpace(c)) {
        i++;
        continue;
      }
      switch (this.state) {
        case VALUE:
        case VALUE_OR_CLOSE:
          if (c === 0x5d && this.state === VALUE_OR_CLOSE) {
            this.close(IN_ARRAY, i);
            i++;
          } else i = this.beginValue(chunk, i, c);
          break;
        case KEY:
        case KEY_OR_CLOSE:
          if (c === 0x22) {
            this.stringIsKey = true;
            i = this.beginString(chunk, i);
          } else if (c === 0x7d && this.state === KEY_OR_CLOSE) {
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
          const top = this.stack[this.stack.length - 1];
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
    if (this.state >= IN_STRING) this.carry(chunk);
    this.consumed += n;
  }

  /** The document has ended: throws unless it held one complete value. */
  end(): void {
    if (this.state === IN_NUMBER || this.state === IN_LITERAL) {
      const bytes = this.tokenBytes(Buffer.alloc(0), 0);
      if (this.state === IN_NUMBER) this.emitNumberAt(bytes, 0, bytes.length);
      else this.emitLiteral(bytes.toString("latin1"));
    }
    if (this.state !== DONE) {
      const what = this.state === IN_STRING ? "inside a string" : `with ${this.stack.length} open containers`;
      throw new JsonSyntaxError(`the document ends ${what} (truncated?)`, this.consumed);
    }
  }

  private error(message: string, i: number): JsonSyntaxError {
    return new JsonSyntaxError(message, this.consumed + i);
  }

  private beginValue(chunk: Buffer, i: number, c: number): number {
    if (c === 0x7b) {
      this.stack.push(IN_OBJECT);
      this.state = KEY_OR_CLOSE;
      this.handler.beginObject();
      return i + 1;
    }
    if (c === 0x5b) {
      this.stack.push(IN_ARRAY);
      this.state = VALUE_OR_CLOSE;
      this.handler.beginArray();
      return i + 1;
    }
    if (c === 0x22) {
      this.stringIsKey = false;
      return this.beginString(chunk, i);
    }
    this.tokenStart = i;
    this.tokenOffset = this.consumed + i;
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      // "-Infinity" starts like a number; the letters tell them apart.
      if (c === 0x2d && i + 1 < chunk.length && chunk[i + 1] === 0x49) this.state = IN_LITERAL;
      else this.state = IN_NUMBER;
      return this.continueToken(chunk, i + 1);
    }
    if (isLetter(c)) {
      this.state = IN_LITERAL;
      return this.continueToken(chunk, i + 1);
    }
    throw this.error(`expected a value, found ${describe(c)}`, i);
  }

  private beginString(chunk: Buffer, i: number): number {
    this.state = IN_STRING;
    this.tokenStart = i;
    this.tokenOffset = this.consumed + i;
    this.stringEscaped = false;
    this.escapeNext = false;
    return this.continueToken(chunk, i + 1);
  }

  /** Scans the token in progress from `i`; returns where scanning stopped (chunk end or past the token). */
  private continueToken(chunk: Buffer, from: number): number {
    const n = chunk.length;
    let i = from;
    if (this.state === IN_STRING) {
      let escapeNext = this.escapeNext;
      for (; i < n; i++) {
        const c = chunk[i];
        if (escapeNext) escapeNext = false;
        else if (c === 0x22) {
          this.escapeNext = false;
          this.endString(chunk, i);
          return i + 1;
        } else if (c === 0x5c) {
          escapeNext = true;
          this.stringEscaped = true;
        } else if (c < 0x20) throw this.error("unescaped control character in a string", i);
      }
      this.escapeNext = escapeNext;
      return n;
    }
    if (this.state === IN_NUMBER) {
      while (i < n && isNumberByte(chunk[i])) i++;
      if (i === n) return n;
      if (chunk[i] === 0x49 && this.tokenLength(i) === 1) {
        // "-" then "Infinity" across a chunk boundary.
        this.state = IN_LITERAL;
        return this.continueToken(chunk, i);
      }
      if (this.carried.length === 0 && this.tokenStart !== -1) this.emitNumberAt(chunk, this.tokenStart, i);
      else {
        const bytes = this.tokenBytes(chunk, i);
        this.emitNumberAt(bytes, 0, bytes.length);
      }
      return i;
    }
    while (i < n && isLetter(chunk[i])) i++;
    if (i === n) return n;
    this.emitLiteral(this.takeToken(chunk, i));
    return i;
  }

  private tokenLength(end: number): number {
    let bytes = end - (this.tokenStart === -1 ? 0 : this.tokenStart);
    for (const b of this.carried) bytes += b.length;
    return bytes;
  }

  /** Keeps the token's bytes in this chunk for the next one. */
  private carry(chunk: Buffer): void {
    const from = this.tokenStart === -1 ? 0 : this.tokenStart;
    this.carried.push(Buffer.from(chunk.subarray(from)));
    this.tokenStart = -1;
  }

  /** The token's bytes up to `end` (exclusive) of this chunk, carried bytes first. */
  private tokenBytes(chunk: Buffer, end: number): Buffer {
    const from = this.tokenStart === -1 ? 0 : this.tokenStart;
    if (this.carried.length === 0) return chunk.subarray(from, end);
    const all = Buffer.concat([...this.carried, chunk.subarray(from, end)]);
    this.carried = [];
    return all;
  }

  private takeToken(chunk: Buffer, end: number): string {
    if (this.carried.length === 0 && this.tokenStart !== -1) return latin1(chunk, this.tokenStart, end);
    return this.tokenBytes(chunk, end).toString("latin1");
  }

  private endString(chunk: Buffer, quote: number): void {
    this.state = AFTER_VALUE;
    const wanted = this.stringIsKey
      ? (this.handler.wantsKey?.() ?? true)
      : (this.handler.wantsValue?.() ?? true);
    let text: string;
    if (!wanted && !this.stringEscaped) {
      if (this.carried.length > 0) this.carried = [];
      text = "";
    } else if (this.carried.length === 0 && this.tokenStart !== -1 && !this.stringEscaped)
      text = utf8(chunk, this.tokenStart + 1, quote);
    else {
      const bytes = this.tokenBytes(chunk, quote + 1);
      if (!this.stringEscaped) text = bytes.toString("utf8", 1, bytes.length - 1);
      else {
        try {
          text = JSON.parse(bytes.toString("utf8")) as string;
        } catch {
          throw new JsonSyntaxError("bad escape in a string", this.tokenOffset);
        }
      }
    }
    if (this.stringIsKey) {
      this.state = COLON;
      this.handler.key(text);
    } else this.scalarDone(text);
  }

  private emitNumberAt(b: Buffer, start: number, end: number): void {
    const value = numberAt(b, start, end);
    if (Number.isNaN(value))
      throw new JsonSyntaxError(
        `bad number '${latin1(b, start, Math.min(end, start + 40))}'`,
        this.tokenOffset,
      );
    this.scalarDone(value);
  }

  private emitLiteral(text: string): void {
    let value: boolean | null;
    if (text === "true") value = true;
    else if (text === "false") value = false;
    else if (text === "null" || text === "NaN" || text === "Infinity" || text === "-Infinity") value = null;
    else throw new JsonSyntaxError(`unknown literal '${text.slice(0, 40)}'`, this.tokenOffset);
    this.scalarDone(value);
  }

  private scalarDone(value: string | number | boolean | null): void {
    this.state = this.stack.length === 0 ? DONE : AFTER_VALUE;
    this.handler.scalar(value);
  }

  private close(kind: number, i: number): void {
    if (this.stack.pop() !== kind) throw this.error("mismatched close", i);
    this.state = this.stack.length === 0 ? DONE : AFTER_VALUE;
    if (kind === IN_OBJECT) this.handler.endObject();
    else this.handler.endArray();
  }
}
