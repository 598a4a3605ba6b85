/**
 * Issue 31, health within 100 ms while a big upload is ingested: a TensorRT-LLM upload's records
 * are read in bounded batches with a turn of the event loop between them. Before, the JSONL
 * readers handed over every line a source had ready in one go: an upload fed faster than it was
 * parsed (from memory, or a stream buffered ahead) was parsed megabytes at a time, 300–740 ms of
 * main-thread CPU in one slice for 20,000 disaggregated requests (docs/reliability.md).
 *
 * Counted, never timed: the JSON text parsed on the main thread between two turns of the event
 * loop while the upload is received and ingested, on each store.
 */
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { tallyPerTurn, tallyUpload } from "../helpers/between-turns";

const REQUESTS = 20_000;

/** Counts the characters and calls of JSON.parse, per turn of the event loop. */
function parsedPerTurn() {
  const tally = tallyPerTurn("chars", "calls");
  const parse = JSON.parse;
  vi.spyOn(JSON, "parse").mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    tally.add("chars", typeof text === "string" ? text.length : 0);
    tally.add("calls");
    return parse(text, reviver);
  });
  return tally;
}

describe.each(TEST_STORES)("a TensorRT-LLM upload's records in turns (%s)", (_store, pgUrl) => {
  useStoreTestApp(pgUrl);
  afterEach(() => vi.restoreAllMocks());

  it("parses a bounded amount of JSON between two turns of the event loop", async () => {
    const most = await tallyUpload(
      "runlens-trtllm-turns-",
      async (dir) =>
        generateTrtllmRun({ dir, mode: "disaggregated", requests: REQUESTS }).files.map((f: string) => ({
          name: path.basename(f),
          path: f,
        })),
      parsedPerTurn,
    );
    console.log(
      `TensorRT-LLM upload of ${REQUESTS} disaggregated requests: at most ${most.chars} characters of JSON in ${most.calls} parses between two turns`,
    );
    // One batch of lines (256 KiB, lib/formats/read-lines.ts TURN_LINE_BYTES) between turns, a
    // record's line past the bound and the summary's own JSON; before, whole megabytes of lines
    // (every line the upload stream had ready).
    expect(most.chars).toBeLessThanOrEqual(512 * 1024);
  }, 300_000);
});
