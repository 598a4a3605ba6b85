/**
 * Streaming reads of JSON documents built on the tokenizer (json-tokens.ts): `ValueBuilder`
 * builds a subtree as the value JSON.parse would give, and `readJsonObjectMembers` hands over a
 * document's top-level members, the long arrays among them one element at a time, so an export
 * that grows with the run (aiperf's timeslices) is never one string or one parsed tree.
 */
import type { Readable } from "node:stream";
import { JsonTokenizer, type JsonTokenHandler } from "./json-tokens";

/** Sets a member as JSON.parse does: an own property, `__proto__` included. */
function setMember(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}

/** Builds subtrees from tokenizer events as the values JSON.parse would give. */
export class ValueBuilder {
  private readonly containers: (Record<string, unknown> | unknown[])[] = [];
  private readonly keys: string[] = [];

  get open(): boolean {
    return this.containers.length > 0;
  }

  key(name: string): void {
    this.keys[this.containers.length - 1] = name;
  }

  begin(container: Record<string, unknown> | unknown[]): void {
    this.containers.push(container);
  }

  /** Adds `value` to the open container; returns it when there is none (the value is complete). */
  add(value: unknown): unknown {
    const depth = this.containers.length;
    if (depth === 0) return value;
    const top = this.containers[depth - 1];
    if (Array.isArray(top)) top.push(value);
    else setMember(top, this.keys[depth - 1], value);
    return undefined;
  }

  /** Closes the innermost container; returns it when it was the outermost. */
  end(): unknown {
    const done = this.containers.pop();
    return this.containers.length === 0 ? done : (this.add(done), undefined);
  }
}

export interface MemberHandlers {
  /** A top-level member, built whole (a streamed name whose value is not an array comes here too). */
  member(key: string, value: unknown): void;
  /** A streamed member's array begins (again, when the name repeats: JSON.parse keeps the last). */
  arrayStart(key: string): void;
  /** One element of a streamed member's array, with its position. */
  element(key: string, value: unknown, index: number): void;
}

// Depth of the event in the document: 0 the top value, 1 a top-level member, 2 an element.
class MembersReader implements JsonTokenHandler {
  private depth = 0;
  private member = "";
  /** The member being streamed (its array is open) */
  private streaming = false;
  private index = 0;
  private readonly builder = new ValueBuilder();
  isObject = false;
  /** What the document's top-level value is */
  topLevel: "object" | "array" | "scalar" = "scalar";

  constructor(
    private readonly streamed: ReadonlySet<string>,
    private readonly on: MemberHandlers,
  ) {}

  private done(value: unknown): void {
    if (this.streaming) this.on.element(this.member, value, this.index++);
    else this.on.member(this.member, value);
  }

  beginObject(): void {
    this.begin({});
  }

  beginArray(): void {
    if (this.depth === 1 && this.isObject && this.streamed.has(this.member)) {
      this.streaming = true;
      this.index = 0;
      this.on.arrayStart(this.member);
      this.depth++;
      return;
    }
    this.begin([]);
  }

  private begin(container: Record<string, unknown> | unknown[]): void {
    if (this.depth === 0) {
      this.isObject = !Array.isArray(container);
      this.topLevel = this.isObject ? "object" : "array";
      this.depth++;
      return;
    }
    this.depth++;
    if (!this.isObject) return; // a top-level array holds no members: skipped
    this.builder.begin(container);
  }

  endObject(): void {
    this.end();
  }

  endArray(): void {
    this.end();
  }

  private end(): void {
    this.depth--;
    if (!this.isObject) return;
    if (this.builder.open) {
      const value = this.builder.end();
      if (!this.builder.open) this.done(value);
    } else if (this.depth === 1 && this.streaming) this.streaming = false;
  }

  key(name: string): void {
    if (this.builder.open) this.builder.key(name);
    else if (this.depth === 1) this.member = name;
  }

  scalar(value: string | number | boolean | null): void {
    if (!this.isObject) return;
    if (this.builder.open) this.builder.add(value);
    else if (this.depth === 1 && this.isObject) this.on.member(this.member, value);
    else if (this.depth === 2 && this.streaming) this.done(value);
  }
}

/**
 * Reads `source` as one JSON document, handing its top-level members to `on` as they end, the
 * members named in `streamed` element by element. Returns what the top-level value was.
 * Throws JsonSyntaxError (naming the byte) on malformed JSON; the rest of the stream is then
 * drained, not parsed, since the caller's stream may be shared with the blob store.
 */
export async function readJsonObjectMembers(
  source: Readable | AsyncIterable<Buffer>,
  streamed: ReadonlySet<string>,
  on: MemberHandlers,
): Promise<"object" | "array" | "scalar"> {
  const reader = new MembersReader(streamed, on);
  const tokenizer = new JsonTokenizer(reader);
  let failure: unknown = null;
  for await (const chunk of source as AsyncIterable<Buffer>) {
    if (failure) continue;
    try {
      tokenizer.write(chunk);
    } catch (err) {
      failure = err;
    }
  }
  if (failure) throw failure;
  tokenizer.end();
  return reader.topLevel;
}
