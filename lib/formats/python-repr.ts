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
    const num = /^-?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf|nan)/.exec(this.s.slice(this.i));
    if (num) {
      this.i += num[0].length;
      const n = Number(num[0]);
      return Number.isFinite(n) ? n : num[0];
    }
    const word = /^[A-Za-z_][\w.]*/.exec(this.s.slice(this.i));
    if (!word) return undefined;
    this.i += word[0].length;
    if (word[0] === "True") return true;
    if (word[0] === "False") return false;
    if (word[0] === "None") return null;
    this.ws();
    if (this.s[this.i] !== "(") return undefined;
    return this.call(word[0], depth);
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
      const key = /^[A-Za-z_]\w*/.exec(this.s.slice(this.i));
      if (!key) return undefined;
      this.i += key[0].length;
      this.ws();
      if (this.s[this.i++] !== "=") return undefined;
      const v = this.value(depth + 1);
      if (v === undefined) return undefined;
      out[key[0]] = v;
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
