/**
 * JSON.stringify in steps (./steps.ts): the long arrays of a value (a timeline window's bars and
 * parts, some hundred thousand numbers) written a slice at a time, the rest at once. The text is
 * JSON.stringify's own, byte for byte: an array's text is its elements' texts joined by commas,
 * so slices written apart and joined the same way give the same text.
 */
import type { Steps } from "./steps";

/** Arrays of this many elements or more are written a slice (of as many) a step. */
export const JSON_SLICE = 8192;

const MARK = "\u0000runlens-json-array:";

export function* stringifyInSteps(value: unknown, slice = JSON_SLICE): Steps<string> {
  const long: unknown[][] = [];
  // A mark no text of the value holds (a key or a string that holds it writes the value
  // at once): a NUL, then a name.
  let clash = false;
  const skeleton = JSON.stringify(value, (key, v: unknown) => {
    if (key.includes(MARK) || (typeof v === "string" && v.includes(MARK))) clash = true;
    if (Array.isArray(v) && v.length >= slice) {
      long.push(v);
      return `${MARK}${long.length - 1}`;
    }
    return v;
  });
  if (clash) return JSON.stringify(value);
  if (long.length === 0) return skeleton;
  yield;
  let out = "";
  let from = 0;
  for (const [k, a] of long.entries()) {
    const quoted = JSON.stringify(`${MARK}${k}`);
    const at = skeleton.indexOf(quoted, from);
    if (at === -1) throw new Error("stringifyInSteps: an array's mark is missing");
    out += skeleton.slice(from, at);
    out += "[";
    for (let s = 0; s < a.length; s += slice) {
      if (s > 0) {
        out += ",";
        yield;
      }
      out += JSON.stringify(a.slice(s, s + slice)).slice(1, -1);
    }
    out += "]";
    from = at + quoted.length;
  }
  return out + skeleton.slice(from);
}

/** Text of this many characters or fewer is parsed by one JSON.parse; longer, a piece a step. */
export const JSON_PARSE_PIECE = 1 << 18;

/**
 * JSON.parse in steps: the same value (JSON.parse's own, key order and `__proto__` keys alike),
 * with a turn between pieces of about `piece` characters. Objects and arrays whose text is longer
 * than a piece are walked here a member at a time; everything shorter, and runs of an array's
 * short elements, go to JSON.parse whole. Finding where a value ends is a scan of its text for
 * its brackets and quotes (a regular expression's jumps), in steps too. Text that is not JSON
 * throws a SyntaxError, as JSON.parse does.
 */
export function* parseJsonInSteps(text: string, piece = JSON_PARSE_PIECE): Steps<unknown> {
  if (text.length <= piece) return JSON.parse(text);
  const p = new StepParser(text, piece);
  const at = p.space(0);
  const [value, end] = yield* p.value(at);
  if (p.space(end) !== text.length) throw new SyntaxError("Unexpected text after JSON");
  return value;
}

const STRUCTURE = /["[\]{}]/g;
const PRIMITIVE_END = /[,\]}\s]/g;

class StepParser {
  /** Characters scanned since the last step. */
  private scanned = 0;
  constructor(
    private readonly text: string,
    private readonly piece: number,
  ) {}

  space(at: number): number {
    const t = this.text;
    while (at < t.length) {
      const c = t.charCodeAt(at);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      at++;
    }
    return at;
  }

  private fail(at: number): never {
    throw new SyntaxError(`Unexpected token in JSON at position ${at}`);
  }

  /** The index just past the string whose opening quote is at `at`. */
  private stringEnd(at: number): number {
    const t = this.text;
    let from = at + 1;
    for (;;) {
      const q = t.indexOf('"', from);
      if (q === -1) this.fail(t.length);
      let slashes = 0;
      while (t.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
      if (slashes % 2 === 0) return q + 1;
      from = q + 1;
    }
  }

  /** The index just past the value starting at `at` (no white space before it), in steps. */
  private *skip(at: number): Steps<number> {
    const t = this.text;
    const c = t[at];
    if (c === '"') return this.stringEnd(at);
    if (c !== "{" && c !== "[") {
      PRIMITIVE_END.lastIndex = at;
      const m = PRIMITIVE_END.exec(t);
      return m ? m.index : t.length;
    }
    let depth = 0;
    STRUCTURE.lastIndex = at;
    let last = at;
    for (;;) {
      const m = STRUCTURE.exec(t);
      if (!m) this.fail(t.length);
      const i = m.index;
      this.scanned += i - last;
      last = i;
      const ch = m[0];
      if (ch === '"') STRUCTURE.lastIndex = this.stringEnd(i);
      else if (ch === "{" || ch === "[") depth++;
      else if (--depth === 0) return i + 1;
      if (this.scanned >= this.piece) {
        this.scanned = 0;
        const resume = STRUCTURE.lastIndex;
        yield;
        // Another parse may have used the shared expression meanwhile.
        STRUCTURE.lastIndex = resume;
      }
    }
  }

  private *step(chars: number): Steps<void> {
    this.scanned += chars;
    if (this.scanned >= this.piece) {
      this.scanned = 0;
      yield;
    }
  }

  /** The value starting at `at` and the index just past it. */
  *value(at: number): Steps<[unknown, number]> {
    const t = this.text;
    const c = t[at];
    if (c === "[") return yield* this.array(at);
    if (c === "{") return yield* this.object(at);
    const end = yield* this.skip(at);
    if (end === at) this.fail(at);
    return [JSON.parse(t.slice(at, end)), end];
  }

  /** A member's value: parsed whole when short, else walked. */
  private *member(at: number): Steps<[unknown, number]> {
    const end = yield* this.skip(at);
    if (end - at > this.piece) {
      const [v, walked] = yield* this.value(at);
      if (walked !== end) this.fail(walked);
      return [v, end];
    }
    yield* this.step(end - at);
    return [JSON.parse(this.text.slice(at, end)), end];
  }

  private *array(open: number): Steps<[unknown[], number]> {
    const t = this.text;
    const out: unknown[] = [];
    let at = this.space(open + 1);
    if (t[at] === "]") return [out, at + 1];
    // A run of short elements, parsed together as one array's text.
    let runFrom = -1;
    let runTo = -1;
    const flush = () => {
      if (runFrom === -1) return;
      const part = JSON.parse(`[${t.slice(runFrom, runTo)}]`) as unknown[];
      for (const v of part) out.push(v);
      runFrom = -1;
    };
    for (;;) {
      const end = yield* this.skip(at);
      if (end === at) this.fail(at);
      if (end - at > this.piece) {
        flush();
        const [v, walked] = yield* this.value(at);
        if (walked !== end) this.fail(walked);
        out.push(v);
      } else {
        if (runFrom === -1) runFrom = at;
        runTo = end;
        if (runTo - runFrom > this.piece) flush();
      }
      yield* this.step(end - at);
      const next = this.space(end);
      if (t[next] === "]") {
        flush();
        return [out, next + 1];
      }
      if (t[next] !== ",") this.fail(next);
      at = this.space(next + 1);
    }
  }

  private *object(open: number): Steps<[Record<string, unknown>, number]> {
    const t = this.text;
    const out: Record<string, unknown> = {};
    let at = this.space(open + 1);
    if (t[at] === "}") return [out, at + 1];
    for (;;) {
      if (t[at] !== '"') this.fail(at);
      const keyEnd = this.stringEnd(at);
      const key = JSON.parse(t.slice(at, keyEnd)) as string;
      const colon = this.space(keyEnd);
      if (t[colon] !== ":") this.fail(colon);
      const [v, end] = yield* this.member(this.space(colon + 1));
      // As JSON.parse makes it: an own property, even named `__proto__`.
      Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      const next = this.space(end);
      if (t[next] === "}") return [out, next + 1];
      if (t[next] !== ",") this.fail(next);
      at = this.space(next + 1);
    }
  }
}
