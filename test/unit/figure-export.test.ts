import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { slug } from "@/components/charts/export";
import { wrap } from "@/components/charts/export-figure";
import { decodePng } from "../helpers/png";

describe("export file names", () => {
  it("slugs a run name into <run>-<chart>", () => {
    expect(slug("TensorRT-LLM · disaggregated perf metrics")).toBe("tensorrt-llm-disaggregated-perf-metrics");
    expect(slug("aiperf · Qwen3-0.6B · concurrency 4")).toBe("aiperf-qwen3-0-6b-concurrency-4");
    expect(slug("  --Run/№ 1!  ")).toBe("run-1");
    expect(slug("x".repeat(79) + " y")).toBe("x".repeat(79));
  });
});

describe("figure text wrap", () => {
  const width = (s: string) => s.length; // one unit per character
  it("breaks greedily between words, never inside one", () => {
    expect(wrap("one two three four", 9, width)).toEqual(["one two", "three", "four"]);
    expect(wrap("averyveryverylongword x", 5, width)).toEqual(["averyveryverylongword", "x"]);
    expect(wrap("  ", 5, width)).toEqual([]);
  });
});

describe("the test PNG decoder", () => {
  it("undoes every filter of a hand-built 2×2 RGBA image", () => {
    // Pixels red, green / blue, white. Row 1, filter 1 (Sub): green − red = (1, 255, 0, 0) mod 256.
    // Row 2, filter 4 (Paeth): blue's prediction is the red above, blue − red = (1, 0, 255, 0);
    // white's predictions per channel (left blue, up green, corner red) are R: left 0, G: up 255,
    // B: left 255, A: left 255, so white − prediction = (255, 0, 0, 0).
    const rows = [
      [1, 255, 0, 0, 255, 1, 255, 0, 0],
      [4, 1, 0, 255, 0, 255, 0, 0, 0],
    ];
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(2, 0);
    ihdr.writeUInt32BE(2, 4);
    ihdr.set([8, 6, 0, 0, 0], 8);
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      return Buffer.concat([len, Buffer.from(type, "latin1"), data, Buffer.alloc(4)]); // CRC not checked
    };
    const png = Buffer.concat([
      Buffer.from("89504e470d0a1a0a", "hex"),
      chunk("IHDR", ihdr),
      chunk("IDAT", deflateSync(Buffer.from(rows.flat()))),
      chunk("IEND", Buffer.alloc(0)),
    ]);
    const { width, height, rgba } = decodePng(png);
    expect([width, height]).toEqual([2, 2]);
    expect(Array.from(rgba)).toEqual([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255]);
  });
});
