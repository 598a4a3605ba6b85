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
