/**
 * A TensorRT-LLM `/perf_metrics` JSON array of 1 GB goes through the array reader element by
 * element: every element arrives, and the heap never holds more than a few elements' worth.
 * The bytes are generated on the fly (never written to disk, never one string).
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readJsonArrayElements } from "@/lib/formats/json-array";
import { jsonArrayChunks } from "../fixtures/bad/generate-big";

const GiB = 1024 ** 3;
const SIZE = Number(process.env.RUNLENS_BAD_ARRAY_BYTES || GiB);

describe("1 GB JSON array", () => {
  it("is streamed element by element with bounded memory", { timeout: 170_000 }, async () => {
    const counter = { elements: 0, bytes: 0 };
    const source = Readable.from(jsonArrayChunks(SIZE, counter));
    global.gc?.();
    const baseHeap = process.memoryUsage().heapUsed;
    let peakHeap = baseHeap;
    let read = 0;
    let lastId = -1;
    const result = { truncated: false };
    for await (const { index, text } of readJsonArrayElements(source, result)) {
      // Spot-check content without parsing all of it (parsing is the analyzer's cost, not the reader's).
      if (index % 50_000 === 0) {
        const rec = JSON.parse(text!) as { request_id: number };
        expect(rec.request_id).toBe(index);
        lastId = rec.request_id;
        peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      }
      read++;
    }
    expect(counter.bytes).toBeGreaterThanOrEqual(SIZE);
    expect(read).toBe(counter.elements);
    expect(lastId).toBeGreaterThan(0);
    expect(result.truncated).toBe(false);
    // One string of the document would be ≥ SIZE bytes; the reader stays within a small window.
    expect(peakHeap - baseHeap).toBeLessThan(128 * 1024 * 1024);
  });
});
