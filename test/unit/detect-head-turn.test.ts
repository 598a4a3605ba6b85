/**
 * Issue 31, health within 100 ms during an ingest: the detection of a staged file reads its whole
 * megabyte head. Before, the head was decoded to text twice (once to tell its kind, once to ask
 * whether it is the start of one large JSON document), in the same turn of the event loop as the
 * head's last bytes arrived and whatever else ran then (a TensorRT-LLM `/perf_metrics` array's
 * detection in 45–56 ms slices of an upload's main thread, docs/performance.md §The last long
 * ingest slices in steps). Now it is decoded once, in a turn of its own.
 *
 * Counted, never timed: the head's bytes decoded to text for one file, and the turn they are
 * decoded in against the turn the head's last bytes came in. The kinds told are those of
 * `detectKind` and `isPartialJsonDocument` on the same head.
 */
import { Readable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { detectKind, DETECT_HEAD_BYTES, isPartialJsonDocument } from "@/lib/formats/detect";
import { stageStream } from "@/lib/ingest/stage-stream";
import type { BlobStore } from "@/lib/store/blob-store";

/** A blob store that reads what it is given and keeps nothing. */
const drain = {
  async put(source: Readable) {
    let bytes = 0;
    for await (const c of source) bytes += (c as Buffer).length;
    return { sha256: "0".repeat(64), bytes, storedBytes: bytes, created: true };
  },
} as unknown as BlobStore;

const record = (i: number) =>
  JSON.stringify({
    request_id: i,
    perf_metrics: {
      timing_metrics: { arrival_time: i, first_token_time: i + 0.1, last_token_time: i + 0.5 },
      first_iter: i,
      last_iter: i + 40,
      kv_cache_metrics: { num_total_allocated_blocks: 12, num_reused_blocks: 3 },
    },
  });

const inputs: Array<[string, string]> = [
  [
    "a /perf_metrics JSON array, one element a line",
    `[\n${Array.from({ length: 12_000 }, (_, i) => record(i)).join(",\n")}\n]\n`,
  ],
  ["the same array on one line", `[${Array.from({ length: 12_000 }, (_, i) => record(i)).join(",")}]`],
  ["JSON lines", Array.from({ length: 12_000 }, (_, i) => record(i)).join("\n") + "\n"],
];

describe("a staged file's detection", () => {
  afterEach(() => vi.restoreAllMocks());

  for (const [name, text] of inputs)
    it(`decodes the head once, in a turn after its last bytes came: ${name}`, async () => {
      const bytes = Buffer.from(text);
      expect(bytes.length).toBeGreaterThan(2 * DETECT_HEAD_BYTES);
      let turn = 0;
      let ticking = true;
      const tick = () => {
        turn++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      // The turn in which the chunk that completes the head was handed over.
      let headFilledIn = -1;
      async function* source(): AsyncGenerator<Buffer> {
        for (let at = 0; at < bytes.length; at += 65_536) {
          if (at <= DETECT_HEAD_BYTES && at + 65_536 > DETECT_HEAD_BYTES) headFilledIn = turn;
          yield bytes.subarray(at, at + 65_536);
        }
      }
      const decodes: Array<{ bytes: number; turn: number }> = [];
      const toString = Buffer.prototype.toString;
      vi.spyOn(Buffer.prototype, "toString").mockImplementation(function (this: Buffer, ...a: unknown[]) {
        if (this.length >= 65_536) decodes.push({ bytes: this.length, turn });
        return (toString as (...x: unknown[]) => string).apply(this, a);
      });
      const staged = await stageStream(drain, "file.json", Readable.from(source()));
      vi.restoreAllMocks();
      ticking = false;
      console.log(
        `${name}: ${decodes.length} decodes of the head, head filled in turn ${headFilledIn}, decoded in ${decodes.map((d) => d.turn).join(", ")}`,
      );

      const head = bytes.subarray(0, DETECT_HEAD_BYTES);
      expect({ kind: staged.kind, format: staged.format }).toEqual(detectKind(head, false));
      expect(staged.bytes).toBe(bytes.length);
      // Before: two decodes of the whole head (2,097,152 bytes).
      expect(decodes.reduce((n, d) => n + d.bytes, 0)).toBeLessThanOrEqual(DETECT_HEAD_BYTES);
      // Before: in the turn the head's last chunk came in.
      expect(headFilledIn).toBeGreaterThanOrEqual(0);
      for (const d of decodes) expect(d.turn).toBeGreaterThan(headFilledIn);
      // Whether the head starts one JSON document it does not hold: an array is, JSON lines are not.
      expect(isPartialJsonDocument(head, false)).toBe(name !== "JSON lines");
    });
});
