/**
 * A reader of the Python literals engines print in their startup logs: `repr()` of dicts, lists,
 * tuples, strings, numbers, `True`/`False`/`None`, and of dataclasses (`Name(key=value, …)`, read
 * as an object of their fields, the class name under `__class__`). vLLM logs its non-default
 * arguments as a dict (`non-default args: {…}`) and its engine configuration with
 * `speculative_config=SpeculativeConfig(method='eagle3', …)`. Anything else (a set, a lambda, an
 * object's default `<… at 0x…>` repr) ends the read: the value is `undefined`, never a guess.
 */

export type PyValue = string | number | boolean | null | PyValue[] | { [k: string]: PyValue };

const MAX_DEPTH = 32;
// Sticky: each matches at the reader's position only, without copying the rest of the line.
const NUMBER = /-?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|nan)/y;
const WORD = /[A-Za-z_][\w.]*/y;
const KEY = /[A-Za-z_]\w*/y;

function at(re: RegExp, s: string, i: number): string | null {
  re.lastIndex = i;
  return re.exec(s)?.[0] ?? null;
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  value(depth: number): PyValue | undefined {
    if (depth > MAX_DEPTH) return undefined;
    this.ws();
    const c = this.s[this.i];
    if (c === "{") return this.dict(depth);
    if (c === "[" || c === "(") return this.list(c === "[" ? "]" : ")", depth);
    if (c === "'" || c === '"') return this.string();
    const num = at(NUMBER, this.s, this.i);
    if (num !== null) {
      this.i += num.length;
      const n = Number(num);
      return Number.isFinite(n) ? n : num;
    }
    const word = at(WORD, this.s, this.i);
    if (word === null) return undefined;
    this.i += word.length;
    if (word === "True") return true;
    if (word === "False") return false;
    if (word === "None") return null;
    this.ws();
    if (this.s[this.i] !== "(") return undefined;
    return this.call(word, depth);
  }

  string(): string | undefined {
    const q = this.s[this.i++];
    let out = "";
    while (this.i < this.s.length) {
      const c = this.s[this.i++];
      if (c === q) return out;
      if (c === "\\") {
        const e = this.s[this.i++];
        out += e === "n" ? "\n" : e === "t" ? "\t" : e;
      } else out += c;
    }
    return undefined;
  }

  dict(depth: number): PyValue | undefined {
    this.i++;
    const out: Record<string, PyValue> = {};
    for (;;) {
      this.ws();
      if (this.s[this.i] === "}") {
        this.i++;
        return out;
      }
      const key = this.value(depth + 1);
      if (key === undefined || typeof key === "object") return undefined;
      this.ws();
      if (this.s[this.i++] !== ":") return undefined;
      const v = this.value(depth + 1);
      if (v === undefined) return undefined;
      out[String(key)] = v;
      this.ws();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== "}") return undefined;
    }
  }

  list(close: string, depth: number): PyValue | undefined {
    this.i++;
    const out: PyValue[] = [];
    for (;;) {
      this.ws();
      if (this.s[this.i] === close) {
        this.i++;
        return out;
      }
      const v = this.value(depth + 1);
      if (v === undefined) return undefined;
      out.push(v);
      this.ws();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== close) return undefined;
    }
  }

  /** `Name(key=value, …)`: a dataclass's repr, its fields as an object. */
  call(name: string, depth: number): PyValue | undefined {
    this.i++;
    const out: Record<string, PyValue> = { __class__: name };
    for (;;) {
      this.ws();
      if (this.s[this.i] === ")") {
        this.i++;
        return out;
      }
      const key = at(KEY, this.s, this.i);
      if (key === null) return undefined;
      this.i += key.length;
      this.ws();
      if (this.s[this.i++] !== "=") return undefined;
      const v = this.value(depth + 1);
      if (v === undefined) return undefined;
      out[key] = v;
      this.ws();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== ")") return undefined;
    }
  }
}

/** The Python literal at `from` in `text` and where it ends, or undefined when it is not one. */
export function readPythonRepr(text: string, from = 0): { value: PyValue; end: number } | undefined {
  const r = new Reader(text);
  r.i = from;
  const value = r.value(0);
  return value === undefined ? undefined : { value, end: r.i };
}
