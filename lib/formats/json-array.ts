import type { Readable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";
import { TURN_LINE_BYTES, TURN_LINES } from "./read-lines";

/**
 * Streams the elements of a top-level JSON array (the older TRT-LLM `/perf_metrics` dump) as
 * their source text, one at a time, so a huge array is never one string. Works on bytes: the
 * structural characters are ASCII, so UTF-8 sequences pass through untouched.
 * Yields `{index, text}`; the caller parses each element. Throws only when the top level is not
 * an array; a truncated tail ends the iteration and sets `result.truncated`. Arrays that follow
 * the first one (a script appending one `/perf_metrics` poll per line) are read on, their
 * elements numbered on; anything else after the end stops the reading and sets `result.trailing`.
 * The event loop takes a turn once `TURN_LINE_BYTES` of elements or `TURN_LINES` elements have
 * been handed over since the last one (as JSON lines are, ./read-lines.ts): a stored array read
 * a megabyte a chunk would otherwise be parsed hundreds of elements at a time, in promise
 * callbacks alone.
 */
export async function* readJsonArrayElements(
  source: Readable | AsyncIterable<Buffer>,
  result: { truncated: boolean; trailing?: boolean } = { truncated: false },
  maxElementBytes = 64 * 1024 * 1024,
): AsyncGenerator<{ index: number; text: string | null }> {
  let started = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: Buffer[] = [];
  let partBytes = 0;
  let overlong = false;
  let index = 0;
  let bomChecked = false;
  let done = false;
  // The last array read has ended: only whitespace or another array may follow.
  let closed = false;
  let elementIsString = false;
  let scalar = false;
  // Bytes and elements handed over since the event loop last took a turn.
  let sinceTurnBytes = 0;
  let sinceTurn = 0;

  // The element whose last bytes are `tail`: its index and text (null when it ran over
  // maxElementBytes; a bare scalar is `sized` only as its parts are gathered), and the parts
  // gathered for it let go.
  const ended = (tail: Buffer, sized: boolean) => {
    const bytes = partBytes + tail.length;
    const text =
      overlong || (sized && bytes > maxElementBytes)
        ? null
        : (parts.length ? Buffer.concat([...parts, tail]) : tail).toString("utf8");
    sinceTurnBytes += bytes;
    parts = [];
    partBytes = 0;
    overlong = false;
    return { index: index++, text };
  };
  // Whether the event loop is due a turn, one more element handed over.
  const turnDue = () => {
    if (++sinceTurn < TURN_LINES && sinceTurnBytes < TURN_LINE_BYTES) return false;
    sinceTurn = sinceTurnBytes = 0;
    return true;
  };

  for await (let chunk of source as AsyncIterable<Buffer>) {
    if (done) break;
    if (!bomChecked) {
      bomChecked = true;
      if (chunk.length >= 3 && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf)
        chunk = chunk.subarray(3);
    }
    let segStart = -1;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (!started) {
        if (c === 0x5b /* [ */) {
          started = true;
          continue;
        }
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
        throw new Error("not a JSON array");
      }
      if (closed) {
        if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
        if (c === 0x5b /* [ */) {
          closed = false;
          continue;
        }
        result.trailing = true;
        done = true;
        break;
      }
      if (depth === 0) {
        if (c === 0x5d /* ] */) {
          closed = true;
          continue;
        }
        if (c === 0x2c || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
        // An element begins.
        segStart = i;
        depth = 1;
        inString = c === 0x22;
        elementIsString = inString;
        // A bare scalar (number, true, false, null) ends at a delimiter, possibly in a later chunk.
        scalar = c !== 0x7b && c !== 0x5b && c !== 0x22;
        continue;
      }
      if (scalar) {
        if (c !== 0x2c && c !== 0x5d && c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) continue;
        yield ended(chunk.subarray(segStart === -1 ? 0 : segStart, i), false);
        if (turnDue()) await nextTurn();
        segStart = -1;
        depth = 0;
        scalar = false;
        if (c === 0x5d) closed = true;
        continue;
      }
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) {
          inString = false;
          if (elementIsString) depth = 0;
        }
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) depth--;
      if (depth === 0) {
        yield ended(chunk.subarray(segStart === -1 ? 0 : segStart, i + 1), true);
        if (turnDue()) await nextTurn();
        segStart = -1;
      }
    }
    if (depth > 0) {
      const rest = chunk.subarray(segStart === -1 ? 0 : segStart);
      if (!overlong) {
        if (partBytes + rest.length > maxElementBytes) {
          overlong = true;
          parts = [];
          partBytes = 0;
        } else {
          parts.push(Buffer.from(rest));
          partBytes += rest.length;
        }
      }
    }
  }
  result.truncated = started && !closed;
  if (!started) throw new Error("not a JSON array");
}
