/**
 * Issue 31, "No read blocks the server" (health within 100 ms throughout, an ingest included):
 * what was left of an upload's main-thread CPU in slices over 30 ms at 200,000 aiperf records
 * and 60,000 TensorRT-LLM requests now comes in bounded steps with a turn of the event loop
 * between them (docs/reliability.md):
 * - an aiperf records file's first blocks, parsed on the main thread before the parse thread
 *   starts: 1 MiB of lines (some 1,700 records) a block, blocks cut from one chunk in one turn;
 * - the aiperf summary's token statistics (the picked values selected in one piece), latency
 *   histograms and derived throughput (one pass over every request each);
 * - a TensorRT-LLM run's step statistics (every request's step list read in one piece per
 *   metric) and its older `/perf_metrics` JSON array (every element of a chunk read from the
 *   stored file parsed in one turn).
 *
 * - an aiperf run's request columns made whole (one exact array each) at the start of the finish:
 *   one column a turn, not all eight in one.
 *
 * - a TensorRT-LLM run's server TTFT and E2E values, kept sorted for the regression verdicts:
 *   both sorted whole in one turn of its finish.
 *
 * Counted, never timed, per turn of the event loop while the upload is ingested: JSON texts
 * parsed on the main thread (`JSON.parse`), typed-array values sorted natively, values read from an aiperf run's request columns
 * (`RequestLog.column` and `sortedMeasured`, read through a counting view), and TensorRT-LLM
 * step lists read (`StepList.values`).
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { StepList } from "@/lib/formats/trtllm-step-list";
import { ChunkedColumn } from "@/lib/metrics/chunked-column";
import { RequestLog, type RequestColumn } from "@/lib/metrics/requests-log";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { tallyPerTurn, tallyUpload, type TurnTally } from "../helpers/between-turns";
import { useStoreTestApp } from "../helpers/pg-schema";
import { aiperfExportFiles } from "../helpers/test-app";

/**
 * Counts JSON.parse calls on this thread (of texts `which` accepts), per turn: texts, or with
 * `chars` their characters.
 */
function parsedPerTurn(which: (text: string) => boolean = () => true, chars = false) {
  const tally = tallyPerTurn("parsed");
  const parse = JSON.parse;
  vi.spyOn(JSON, "parse").mockImplementation(function (this: unknown, ...a: Parameters<typeof JSON.parse>) {
    if (which(a[0])) tally.add("parsed", chars ? a[0].length : 1);
    return parse.apply(JSON, a);
  });
  return tally;
}

/**
 * A view of `a` that counts every element read through it; its methods run on `a` itself (a
 * `subarray` of it is not counted: what reads one is a native copy or a sort, counted elsewhere).
 */
function counting(a: Float64Array, tally: TurnTally<"values">): Float64Array {
  return new Proxy(a, {
    get(target, key) {
      if (typeof key === "string" && key.charCodeAt(0) >= 48 && key.charCodeAt(0) <= 57) {
        tally.add("values");
        return target[Number(key)];
      }
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** Counts values read from a request log's columns and sorted columns, per turn. */
function columnValuesPerTurn() {
  const tally = tallyPerTurn("values");
  const column = RequestLog.prototype.column;
  const sorted = RequestLog.prototype.sortedMeasured;
  vi.spyOn(RequestLog.prototype, "column").mockImplementation(function (this: RequestLog, c: RequestColumn) {
    return counting(column.call(this, c), tally);
  });
  vi.spyOn(RequestLog.prototype, "sortedMeasured").mockImplementation(function (
    this: RequestLog,
    c: RequestColumn,
  ) {
    return counting(sorted.call(this, c), tally);
  });
  return tally;
}

/** Counts TensorRT-LLM step lists read, per turn. */
function stepListsPerTurn() {
  const tally = tallyPerTurn("lists");
  const values = StepList.prototype.values;
  vi.spyOn(StepList.prototype, "values").mockImplementation(function (this: StepList) {
    tally.add("lists");
    return values.call(this);
  });
  return tally;
}

/** Counts the values of typed-array sorts on this thread, per turn. */
function sortedPerTurn() {
  const tally = tallyPerTurn("sorted");
  const typed = Object.getPrototypeOf(Float64Array.prototype) as { sort(this: ArrayLike<number>): unknown };
  const sort = typed.sort;
  vi.spyOn(typed, "sort").mockImplementation(function (this: ArrayLike<number>, ...a: unknown[]) {
    tally.add("sorted", this.length);
    return (sort as (...x: unknown[]) => unknown).apply(this, a);
  });
  return tally;
}

/** A generated TensorRT-LLM run's JSONL files rewritten as `/perf_metrics` JSON arrays. */
function asJsonArrays(dir: string): Array<{ name: string; path: string }> {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => {
      const lines = fs
        .readFileSync(path.join(dir, f), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "");
      const out = path.join(dir, f.replace(/\.jsonl$/, ".json"));
      // One line: a document larger than the detection head, read once it is stored.
      fs.writeFileSync(out, `[${lines.join(",")}]`);
      return { name: path.basename(out), path: out };
    });
}

describe("an upload's last long slices, in turns", () => {
  useStoreTestApp(undefined);
  afterEach(() => vi.restoreAllMocks());

  it("parses at most some hundreds of aiperf records on the main thread between two turns", async () => {
    const { parsed } = await tallyUpload(
      "runlens-slices-parse-",
      async (dir) => {
        await generateAiperfRun(dir, { records: 12_000, concurrency: 32, seed: 37, csv: false });
        return aiperfExportFiles(dir);
      },
      parsedPerTurn,
    );
    console.log(`aiperf upload of 12,000 records: at most ${parsed} JSON texts parsed between two turns`);
    // A block of 128 KiB of lines (INLINE_BLOCK_BYTES, ~220 records) a turn; before, 1 MiB blocks
    // (~1,700 records), several in the turn a chunk of many lines arrived.
    expect(parsed).toBeLessThanOrEqual(512);
  }, 300_000);

  it("reads at most some tens of thousands of an aiperf run's request values between two turns", async () => {
    const { values } = await tallyUpload(
      "runlens-slices-values-",
      async (dir) => {
        await generateAiperfRun(dir, { records: 60_000, concurrency: 32, seed: 41, csv: false });
        return aiperfExportFiles(dir);
      },
      columnValuesPerTurn,
    );
    console.log(`aiperf upload of 60,000 records: at most ${values} request values read between two turns`);
    // Passes of 16,384 values a step (PASS_STEP, lib/metrics/stats.ts); a step may end one pass and
    // start the next. Before, the token statistics, the histograms and the throughput each read
    // every request's values in one turn (3 × 60,000 for the histograms alone).
    expect(values).toBeLessThanOrEqual(2 * 16_384);
  }, 300_000);

  it("makes at most two columns' values whole between two turns at an aiperf finish", async () => {
    const tally = tallyPerTurn("values");
    const { values } = await tallyUpload(
      "runlens-slices-whole-",
      async (dir) => {
        await generateAiperfRun(dir, { records: 12_000, concurrency: 32, seed: 43, csv: false });
        return aiperfExportFiles(dir);
      },
      () => {
        const array = ChunkedColumn.prototype.array;
        vi.spyOn(ChunkedColumn.prototype, "array").mockImplementation(function (
          this: ChunkedColumn<Float64Array>,
        ) {
          // Only a column not yet whole is copied.
          if ((this as unknown as { whole: unknown }).whole === null) tally.add("values", this.length);
          return array.call(this) as Float64Array;
        });
        return tally;
      },
    );
    console.log(
      `aiperf upload of 12,000 records: at most ${values} column values made whole between two turns`,
    );
    // One request column a turn (the queue waits make their two at once); before, the seven
    // request columns and the flags in one turn (96,000).
    expect(values).toBeLessThanOrEqual(2 * 12_000);
  }, 300_000);

  it("reads a bounded number of TensorRT-LLM step lists and array elements between two turns", async () => {
    let files: Array<{ name: string; path: string }> = [];
    const tally = { lists: 0, parsed: 0 };
    const result = await tallyUpload(
      "runlens-slices-trtllm-",
      async (dir) => {
        generateTrtllmRun({ dir, mode: "disaggregated", requests: 6_000 });
        files = asJsonArrays(dir);
        return files;
      },
      () => {
        const lists = stepListsPerTurn();
        // TensorRT-LLM records only: the drill-down's timeline parses its rows' JSON a page a turn.
        const parsed = parsedPerTurn((text) => text.includes('"timing_metrics"'), true);
        return {
          add: () => {},
          stop: () => ({ ...lists.stop(), ...parsed.stop() }),
        } as TurnTally<"lists" | "parsed">;
      },
    );
    Object.assign(tally, result);
    console.log(
      `TensorRT-LLM upload of 6,000 requests as JSON arrays: at most ${tally.lists} step lists read and ${tally.parsed} characters of records parsed between two turns`,
    );
    // Step statistics: 4,096 steps and requests a step (VALUES_STEP, lib/metrics/trtllm-steps.ts),
    // so at most 2,048 lists of a step or more; the summary's pass, two lists a request, 500
    // requests a step. Before, every request's list per metric in one turn (6,000).
    expect(tally.lists).toBeLessThanOrEqual(2_048);
    // A reader takes a turn every 2,048 elements or 256 KiB of them (TURN_LINES, TURN_LINE_BYTES,
    // as JSON lines), its last element passing it; two readers of the stored files may share a
    // turn. Before, a whole file's elements in one turn (17 MB of text).
    expect(tally.parsed).toBeLessThanOrEqual(2 * (256 * 1024 + 16 * 1024));
  }, 300_000);

  it("sorts at most 16,384 of a TensorRT-LLM run's values between two turns at its finish", async () => {
    const { sorted } = await tallyUpload(
      "runlens-slices-trtllm-sort-",
      async (dir) =>
        generateTrtllmRun({ dir, mode: "disaggregated", requests: 20_000 }).files.map((f: string) => ({
          name: path.basename(f),
          path: f,
        })),
      sortedPerTurn,
    );
    console.log(
      `TensorRT-LLM upload of 20,000 requests: at most ${sorted} values sorted natively between two turns`,
    );
    // Sorts in steps of SORT_STEP (lib/metrics/stats.ts); before, the server TTFT and E2E values a
    // verdict resamples (ValueColumn.sorted) were sorted whole, both in one turn: 40,000.
    expect(sorted).toBeLessThanOrEqual(16_384);
  }, 300_000);
});
