/**
 * JSON.stringify in steps (./steps.ts): the long arrays of a value (a timeline window's bars and
 * parts, some hundred thousand numbers) written a slice at a time, the rest at once. The text is
 * JSON.stringify's own, byte for byte: an array's text is its elements' texts joined by commas,
 * so slices written apart and joined the same way give the same text.
 */
import type { Steps } from "./steps";

/** Arrays of this many elements or more are written a slice (of as many) a step. */
export const JSON_SLICE = 8192;

export function* stringifyInSteps(value: unknown, slice = JSON_SLICE): Steps<string> {
  const long: unknown[][] = [];
  // A mark no value holds: a NUL, then a nonce.
  const mark = `\u0000runlens-json-${Math.random().toString(36).slice(2)}:`;
  const skeleton = JSON.stringify(value, (_key, v: unknown) => {
    if (Array.isArray(v) && v.length >= slice) {
      long.push(v);
      return `${mark}${long.length - 1}`;
    }
    return v;
  });
  if (long.length === 0) return skeleton;
  yield;
  let out = "";
  let from = 0;
  for (const [k, a] of long.entries()) {
    const quoted = JSON.stringify(`${mark}${k}`);
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
