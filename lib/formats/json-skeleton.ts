/**
 * The outline of a JSON document of any size, read as a stream (json-tokens.ts): every object's
 * members down to a few levels, each array's first few elements, strings cut short. Detection
 * asks its rules of this outline when the document does not fit in the detection head, so a
 * key written after a megabyte of per-request arrays still counts (docs/formats.md §Detection).
 */
import { JsonTokenizer, type JsonTokenHandler } from "./json-tokens";

const MAX_DEPTH = 8;
const MAX_ELEMENTS = 3;
const MAX_STRING = 256;
/**
 * Values kept in all; past it only top-level scalars are (a document of a million keys stays
 * small), and past four times it nothing more.
 */
const MAX_VALUES = 100_000;

interface Frame {
  container: Record<string, unknown> | unknown[];
  key: string;
}

class SkeletonBuilder implements JsonTokenHandler {
  private readonly stack: Frame[] = [];
  private kept = 0;
  root: unknown = undefined;

  /** Whether the next value is kept: not too deep, not past an array's first elements. */
  private keeping(): boolean {
    const top = this.stack[this.stack.length - 1];
    if (!top) return true;
    if (this.stack.length > MAX_DEPTH || this.kept >= 4 * MAX_VALUES) return false;
    if (this.kept >= MAX_VALUES && this.stack.length > 1) return false;
    return !Array.isArray(top.container) || top.container.length < MAX_ELEMENTS;
  }

  private add(value: unknown): void {
    this.kept++;
    const top = this.stack[this.stack.length - 1];
    if (!top) this.root = value;
    else if (Array.isArray(top.container)) top.container.push(value);
    else if (top.key !== "__proto__") top.container[top.key] = value;
  }

  wantsValue(): boolean {
    return this.keeping();
  }

  private open(container: Record<string, unknown> | unknown[]): void {
    this.add(container);
    this.stack.push({ container, key: "" });
  }

  beginObject(): void {
    this.open({});
  }

  beginArray(): void {
    this.open([]);
  }

  endObject(): void {
    this.stack.pop();
  }

  endArray(): void {
    this.stack.pop();
  }

  key(name: string): void {
    const top = this.stack[this.stack.length - 1];
    if (top) top.key = name;
  }

  scalar(value: string | number | boolean | null): void {
    // Numbers and literals arrive even where no value is wanted.
    if (!this.keeping()) return;
    this.add(typeof value === "string" && value.length > MAX_STRING ? value.slice(0, MAX_STRING) : value);
  }
}

/**
 * The outline of the one JSON document in `source`, or null when it is not one (malformed, or
 * several values such as JSON lines). Reads the source to its end.
 */
export async function jsonSkeleton(source: AsyncIterable<Buffer>): Promise<unknown> {
  const builder = new SkeletonBuilder();
  const tokenizer = new JsonTokenizer(builder);
  let failed = false;
  for await (const chunk of source) {
    if (failed) continue;
    try {
      tokenizer.write(chunk);
    } catch {
      failed = true;
    }
  }
  if (failed) return null;
  try {
    tokenizer.end();
  } catch {
    return null;
  }
  return builder.root === undefined ? null : builder.root;
}
