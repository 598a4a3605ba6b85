/**
 * aiperf's profile_export_aiperf_timeslices.json read as it streams gives what JSON.parse of the
 * whole document gave, on real exports (aiperf 0.6.0 in aiperf-real-c4, and the timeslices
 * fixture) and on edge documents, however the bytes are cut.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseTimeslicesJson, readTimeslicesJson } from "@/lib/formats/aiperf-timeslices";
import { JsonSyntaxError } from "@/lib/formats/json-tokens";

const FIX = path.resolve(__dirname, "../fixtures");

function chunked(text: string, size: number): Readable {
  const bytes = Buffer.from(text);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

describe("timeslices JSON, streamed", () => {
  it.each([
    "aiperf-real-c4/profile_export_aiperf_timeslices.json",
    "aiperf/timeslices/profile_export_aiperf_timeslices.json",
  ])("%s: the whole-document parse's slices, in any chunking", async (rel) => {
    const text = fs.readFileSync(path.join(FIX, rel), "utf8");
    const whole = parseTimeslicesJson(JSON.parse(text));
    expect(whole.slices.length).toBeGreaterThan(1);
    for (const size of [1, 17, 65536]) expect(await readTimeslicesJson(chunked(text, size))).toEqual(whole);
  });

  it.each([
    `{"input_config": {"output": {"slice_duration": 5}}, "timeslices": [1, {"ttft": {"unit": "ms", "avg": 2}}, {"timeslice_index": 7, "is_complete": false}]}`,
    `{"timeslices": [{"a": {"avg": 1}}], "timeslices": [{"b": {"avg": 2}}]}`,
    `{"timeslices": [{"a": {"avg": 1}}], "timeslices": {"not": "a list"}}`,
    `{"timeslices": [{"a": {"avg": 1}}], "input_config": 3}`,
    `[{"timeslices": [{"a": {"avg": 1}}]}]`,
    `{}`,
  ])("follows JSON.parse on %s", async (text) => {
    for (const size of [1, 3, 1000])
      expect(await readTimeslicesJson(chunked(text, size))).toEqual(parseTimeslicesJson(JSON.parse(text)));
  });

  it("reads no export from a bare value, and names the byte where malformed JSON breaks", async () => {
    expect(await readTimeslicesJson(chunked("42", 1))).toBeNull();
    await expect(readTimeslicesJson(chunked(`{"timeslices": [{"a": 1}`, 4))).rejects.toThrow(JsonSyntaxError);
    await expect(readTimeslicesJson(chunked(`{"timeslices": [{"a": 1}}`, 4))).rejects.toThrow(/at byte 24/);
  });
});
