/**
 * Text encodings told by a byte-order mark. Every reader works on UTF-8; a UTF-16 file (Windows
 * tools write it, PowerShell's `>` among them) is decoded to UTF-8 before it reaches them, and a
 * UTF-8 BOM is dropped. The stored raw file is never rewritten: only what the readers see.
 */
import { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";

type Encoding = "utf8" | "utf16le" | "utf16be";

/** The encoding the first bytes announce, and how many bytes the mark takes. */
function byteOrderMark(head: Buffer): { encoding: Encoding; bomBytes: number } {
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return { encoding: "utf16le", bomBytes: 2 };
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return { encoding: "utf16be", bomBytes: 2 };
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { encoding: "utf8", bomBytes: 3 };
  return { encoding: "utf8", bomBytes: 0 };
}

/**
 * UTF-16 to UTF-8, chunk by chunk: an odd byte and half a surrogate pair at the end of a chunk
 * wait for the next one, so the output does not depend on how the bytes were cut. The decoder
 * is only given whole code units: handed an odd byte after a high surrogate, Node's emits the
 * surrogate alone.
 */
class Utf16ToUtf8 {
  private readonly decoder = new StringDecoder("utf16le");
  /** The first byte of a code unit whose second byte is in the next chunk. */
  private odd: number | null = null;

  constructor(private readonly bigEndian: boolean) {}

  write(chunk: Buffer): Buffer {
    // A copy either way: swapping works in place, and the source may reuse its buffer.
    const bytes = this.odd === null ? Buffer.from(chunk) : Buffer.concat([Buffer.of(this.odd), chunk]);
    const even = bytes.length - (bytes.length % 2);
    this.odd = even < bytes.length ? bytes[even] : null;
    const units = bytes.subarray(0, even);
    return Buffer.from(this.decoder.write(this.bigEndian ? units.swap16() : units), "utf8");
  }

  end(): Buffer {
    return Buffer.from(this.decoder.end(), "utf8");
  }
}

/**
 * A file's first bytes as UTF-8 for detection: UTF-16 decoded, a UTF-8 BOM left in place (the
 * detector drops it). A code unit cut at the end of the head is left out.
 */
export function headAsUtf8(head: Buffer): Buffer {
  const { encoding, bomBytes } = byteOrderMark(head);
  if (encoding === "utf8") return head;
  return new Utf16ToUtf8(encoding === "utf16be").write(head.subarray(bomBytes));
}

/** How many bytes tell the encoding: the longest mark. */
const MARK_BYTES = 3;

/** The decoder the first bytes call for (none for UTF-8), and those bytes without their mark. */
function begin(first: Buffer): { decoder: Utf16ToUtf8 | null; rest: Buffer } {
  const { encoding, bomBytes } = byteOrderMark(first);
  const decoder = encoding === "utf8" ? null : new Utf16ToUtf8(encoding === "utf16be");
  return { decoder, rest: first.subarray(bomBytes) };
}

/**
 * The bytes of `source` as UTF-8 text: decoded from UTF-16 when a BOM says so, without a UTF-8
 * BOM, and otherwise unchanged chunk for chunk. Destroying the result stops the source.
 */
export function utf8Text(source: AsyncIterable<Buffer>): Readable {
  async function* decode(): AsyncGenerator<Buffer> {
    /** The first bytes, until there are enough to tell the encoding; then null. */
    let head: Buffer | null = Buffer.alloc(0);
    let decoder: Utf16ToUtf8 | null = null;
    for await (let chunk of source) {
      if (head !== null) {
        // A copy: a source may reuse its buffer while a short first chunk waits here.
        head = Buffer.concat([head, chunk]);
        if (head.length < MARK_BYTES) continue;
        ({ decoder, rest: chunk } = begin(head));
        head = null;
      }
      const out = decoder ? decoder.write(chunk) : chunk;
      if (out.length > 0) yield out;
    }
    if (head !== null && head.length > 0) ({ decoder, rest: head } = begin(head));
    const out = head === null ? null : decoder ? decoder.write(head) : head;
    if (out && out.length > 0) yield out;
    const tail = decoder?.end();
    if (tail && tail.length > 0) yield tail;
  }
  return Readable.from(decode(), { objectMode: false });
}
