/**
 * The streaming JSON tokenizer against JSON.parse: the same values from the same bytes however
 * they are cut into chunks, the same documents refused (with the byte where each breaks), and
 * numbers rounded to the same doubles.
 */
import { describe, expect, it } from "vitest";
import { JsonSyntaxError, JsonTokenizer, numberAt, type JsonTokenHandler } from "@/lib/formats/json-tokens";
import { prng } from "../generators/prng.mjs";

/** Rebuilds the value from the events (what a reader of a subtree does). */
class Rebuild implements JsonTokenHandler {
  private readonly stack: (Record<string, unknown> | unknown[])[] = [];
  private readonly keys: string[] = [];
  value: unknown = undefined;
  private add(v: unknown): void {
    const top = this.stack.at(-1);
    if (!top) this.value = v;
    else if (Array.isArray(top)) top.push(v);
    else
      Object.defineProperty(top, this.keys[this.stack.length - 1], {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  beginObject(): void {
    this.stack.push({});
  }
  beginArray(): void {
    this.stack.push([]);
  }
  endObject(): void {
    this.add(this.stack.pop());
  }
  endArray(): void {
    this.add(this.stack.pop());
  }
  key(name: string): void {
    this.keys[this.stack.length - 1] = name;
  }
  scalar(v: string | number | boolean | null): void {
    this.add(v);
  }
}

function tokenize(bytes: Buffer, chunk: number): unknown {
  const h = new Rebuild();
  const t = new JsonTokenizer(h);
  for (let i = 0; i < bytes.length; i += chunk) t.write(bytes.subarray(i, i + chunk));
  t.end();
  return h.value;
}

const VALID = [
  `{"a": 1, "b": [true, false, null], "c": {"d": "e"}}`,
  `[]`,
  `{}`,
  ` [ {} , [] , "" , 0 , -0 , -0.5 , 1e3 , 1E-7 , 2.5e+10 ] `,
  `"just a string"`,
  `12345`,
  `{"esc": "quote \\" backslash \\\\ slash \\/ \\b\\f\\n\\r\\t \\u00e9 \\ud83d\\ude00"}`,
  `{"utf8": "größe — 東京 😀", "k😀": 1}`,
  `{"dup": 1, "dup": 2, "2": "int keys first", "1": "in order"}`,
  `{"__proto__": {"x": 1}}`,
  `[1796112919272328095, 0.1, 0.30000000000000004, 123456789012345678901234567890, 5e-324, 1.7976931348623157e308]`,
  `{"deep": [[[[[[{"x": [1, [2, [3]]]}]]]]]]}`,
];

describe("JsonTokenizer", () => {
  it("gives JSON.parse's value at every chunk size", () => {
    for (const text of VALID) {
      const bytes = Buffer.from(text);
      const expected = JSON.parse(text);
      for (const chunk of [1, 2, 3, 5, 7, 64, bytes.length])
        expect(tokenize(bytes, chunk), `${text} in ${chunk}-byte chunks`).toEqual(expected);
    }
  });

  it("keeps JSON.parse's member order and repeated names", () => {
    const text = VALID[8];
    expect(Object.keys(tokenize(Buffer.from(text), 3) as object)).toEqual(Object.keys(JSON.parse(text)));
    expect(Object.getPrototypeOf(tokenize(Buffer.from(VALID[9]), 4))).toBe(Object.prototype);
  });

  it("reads Python's NaN / Infinity / -Infinity as null, and skips a byte order mark", () => {
    const text = `\ufeff{"a": NaN, "b": [Infinity, -Infinity, 1]}`;
    for (const chunk of [1, 2, 4, 100])
      expect(tokenize(Buffer.from(text), chunk)).toEqual({ a: null, b: [null, null, 1] });
  });

  it.each([
    [`{"a": 1,}`, 8, "expected a member name"],
    [`[1, 2`, 5, "truncated"],
    [`{"a": 1} x`, 9, "after the end"],
    [`{"a" 1}`, 5, "expected ':'"],
    [`[01]`, 1, "bad number"],
    [`[1.]`, 1, "bad number"],
    [`[-]`, 1, "bad number"],
    [`[1e]`, 1, "bad number"],
    [`[nul]`, 1, "unknown literal"],
    [`["a\u0001"]`, 3, "control character"],
    [`["\\x"]`, 1, "bad escape"],
    [`{"a": "unterminated`, 19, "inside a string"],
    [`[1}`, 2, "expected ',' or ']'"],
    [``, 0, "truncated"],
  ])("refuses %s at byte %i, as JSON.parse does", (text, offset, message) => {
    expect(() => JSON.parse(text.replace(/NaN/g, "null"))).toThrow();
    for (const chunk of [1, 3, 1000]) {
      let err: unknown;
      try {
        tokenize(Buffer.from(text), chunk);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(JsonSyntaxError);
      expect((err as JsonSyntaxError).offset).toBe(offset);
      expect((err as Error).message).toContain(message);
      expect((err as Error).message).toContain(`at byte ${offset}`);
    }
  });

  it("rounds every number to the double Number() gives", () => {
    const rand = prng(19);
    const texts: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const intDigits = 1 + Math.floor(rand() * 19);
      const fracDigits = Math.floor(rand() * 18);
      let s = rand() < 0.3 ? "-" : "";
      s += String(1 + Math.floor(rand() * 9));
      for (let d = 1; d < intDigits; d++) s += String(Math.floor(rand() * 10));
      if (rand() < 0.1) s = s.startsWith("-") ? "-0" : "0";
      if (fracDigits > 0) {
        s += ".";
        for (let d = 0; d < fracDigits; d++) s += String(Math.floor(rand() * 10));
      }
      if (rand() < 0.1) s += `e${Math.floor(rand() * 40) - 20}`;
      texts.push(s);
    }
    for (const s of texts) {
      const b = Buffer.from(`x${s}x`);
      expect(Object.is(numberAt(b, 1, b.length - 1), Number(s)), s).toBe(true);
    }
  });
});

/** Rebuilds the value, skipping (wantsValue false) every container under a member named `skip`. */
class SkipNamed extends Rebuild {
  private pendingSkip = false;
  override key(name: string): void {
    super.key(name);
    this.pendingSkip = name === "skip";
  }
  wantsValue(): boolean {
    const wanted = !this.pendingSkip;
    this.pendingSkip = false;
    return wanted;
  }
  override scalar(v: string | number | boolean | null): void {
    this.pendingSkip = false;
    super.scalar(v);
  }
}

function tokenizeSkipping(bytes: Buffer, chunk: number): unknown {
  const h = new SkipNamed();
  const t = new JsonTokenizer(h);
  for (let i = 0; i < bytes.length; i += chunk) t.write(bytes.subarray(i, i + chunk));
  t.end();
  return h.value;
}

function offsetOf(run: () => unknown): number | null {
  try {
    run();
  } catch (e) {
    if (e instanceof JsonSyntaxError) return e.offset;
    throw e;
  }
  return null;
}

describe("JsonTokenizer, skipping what the handler does not want", () => {
  const skipped = `{"a": 1, "skip": {"x": [1, 2.5, "s\\u00e9\\"", {"y": null}], "z": -Infinity}, "b": [true], "skip": [[[]]], "c": "d"}`;

  it("raises no event inside a subtree the handler does not want, at every chunk size", () => {
    const bytes = Buffer.from(skipped);
    for (const chunk of [1, 2, 3, 7, 64, bytes.length]) {
      const value = tokenizeSkipping(bytes, chunk) as Record<string, unknown>;
      // The skipped member's value never arrived: its name is there with nothing set.
      expect(value).toEqual({ a: 1, b: [true], c: "d" });
    }
  });

  it.each([
    [`{"skip": {"x": [1, 2,]}, "b": 1}`, "expected a value"],
    [`{"skip": {"x": 01}}`, "bad number"],
    [`{"skip": {"x": 1.e5}}`, "bad number"],
    [`{"skip": ["\\q"]}`, "bad escape"],
    [`{"skip": ["\\u12g4"]}`, "bad escape"],
    [`{"skip": ["a\u0002"]}`, "control character"],
    [`{"skip": [nope]}`, "unknown literal"],
    [`{"skip": {"x" 1}}`, "expected ':'"],
    [`{"skip": [1}`, "expected ',' or ']'"],
    [`{"skip": [1, 2]`, "truncated"],
  ])("still refuses %s where JSON.parse does, at the same byte", (text, message) => {
    expect(() => JSON.parse(text)).toThrow();
    const bytes = Buffer.from(text);
    const unskipped = offsetOf(() => tokenize(bytes, 1000));
    expect(unskipped).not.toBeNull();
    for (const chunk of [1, 2, 5, 1000]) {
      let err: unknown;
      try {
        tokenizeSkipping(bytes, chunk);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(JsonSyntaxError);
      expect((err as JsonSyntaxError).offset).toBe(unskipped);
      expect((err as Error).message).toContain(message);
    }
  });
});

describe("JsonTokenizer, member names", () => {
  it("decodes thousands of distinct and repeated names as JSON.parse does, however they are cut", () => {
    // More names than the decoder keeps, several of a length, some past its longest kept name,
    // multi-byte ones among them: each must come back as itself, never as a neighbour's.
    const names = Array.from({ length: 3000 }, (_, i) =>
      i % 7 === 0 ? `größe-${i}` : i % 11 === 0 ? `${"n".repeat(40)}${i}` : `k${i}`,
    );
    const doc = `[${Array.from({ length: 4 }, () => `{${names.map((n, i) => `"${n}": ${i}`).join(", ")}}`).join(", ")}]`;
    const bytes = Buffer.from(doc);
    for (const chunk of [3, 17, 4096]) expect(tokenize(bytes, chunk)).toEqual(JSON.parse(doc));
  });
});

describe("numberAt, integers past 2^53", () => {
  it("rounds them to the double Number() gives", () => {
    const rand = prng(53);
    const texts = [
      "9007199254740993", // 2^53 + 1: a tie, rounds to even
      "9007199254740995",
      "18446744073709551615", // 2^64 - 1
      "18446744073709551616", // 2^64
      "99999999999999999999",
      "100000000000000000000", // 21 digits: through Number
      "1796112917272328095", // an aiperf nanosecond clock
      "-1796112917272328095",
      "4294967296",
      "4294967295",
    ];
    for (let i = 0; i < 20_000; i++) {
      const digits = 16 + Math.floor(rand() * 5);
      let s = rand() < 0.2 ? "-" : "";
      s += String(1 + Math.floor(rand() * 9));
      for (let d = 1; d < digits; d++) s += String(Math.floor(rand() * 10));
      texts.push(s);
    }
    for (const s of texts) {
      const b = Buffer.from(`x${s}x`);
      expect(Object.is(numberAt(b, 1, b.length - 1), Number(s)), s).toBe(true);
    }
  });
});
