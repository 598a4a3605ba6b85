/**
 * Issue 31, "No read blocks the server": a run's request timeline, built after its upload (with
 * its drill-down), sorts and copies its columns a bounded piece between two turns of the event
 * loop, and cuts its stored first window in steps too. Before, the timeline builder's `finish`
 * sorted an index of every request and copied each column in one piece, and the first window was
 * cut at once: at 100,000 TensorRT-LLM requests a concurrent read measured 318.6 ms of CPU in one
 * event-loop gap, and the first window alone held the loop 0.4 s (docs/reliability.md).
 *
 * Counted, never timed: the builder's column reads (every comparison of the sort reads four, every
 * copy one) between two turns of the event loop while the upload's timeline is built, on each
 * store; and, on the builder alone, the steps and the timeline they give.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChunkedColumn } from "@/lib/metrics/chunked-column";
import { encodeTimeline, TIMELINE_DEFAULT_LIMIT } from "@/lib/api/timeline";
import { firstWindowInTurns } from "@/lib/ingest/timeline-columns";
import {
  FINISH_STEP,
  TIMELINE_WINDOW_VERSION,
  TimelineBuilder,
  timelineWindow,
  WINDOW_STEP,
} from "@/lib/metrics/request-timeline";
import { TIMELINE_PACK_VERSION } from "@/lib/metrics/request-timeline-pack";
import { atOnce } from "@/lib/metrics/steps";
import { eachTrtllmTimelineRow, TRTLLM_TURN } from "@/lib/store/timeline-rows";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { tallyPerTurn } from "../helpers/between-turns";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { uploadGeneratedAiperf, uploadRun, waitForDrilldown } from "../helpers/test-app";

const RECORDS = 50_000;
/**
 * The most column reads between two turns while an aiperf run's timeline is placed from its
 * request file in two passes (`TwoPassTimelineBuilder`): its chunked columns are read only to
 * sort the bars by start and copy them into the timeline, a FINISH_STEP of requests a step (this
 * run's starts come in file order, so the sort is one pass of checks). In one piece, every
 * request's reads would come in one stretch (350,124 here). Before the two passes the builder's own `finish` read
 * 1,450,120, bounded at 64 · FINISH_STEP between turns.
 */
const TWO_PASS_READS_PER_TURN = 16 * FINISH_STEP;

/** Counts ChunkedColumn reads and, at each turn of the event loop, the most since the last turn. */
function readsBetweenTurns() {
  let reads = 0;
  let since = 0;
  let most = 0;
  let turns = 0;
  let running = true;
  const get = ChunkedColumn.prototype.get;
  vi.spyOn(ChunkedColumn.prototype, "get").mockImplementation(function (this: ChunkedColumn<Int32Array>, i) {
    reads++;
    return get.call(this, i);
  });
  const tick = () => {
    if (!running) return;
    most = Math.max(most, reads - since);
    since = reads;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      running = false;
      return { reads, turns, most: Math.max(most, reads - since) };
    },
  };
}

describe.each(TEST_STORES)("a run's timeline is built in turns (%s)", (_store, pgUrl) => {
  useStoreTestApp(pgUrl);
  afterEach(() => vi.restoreAllMocks());

  it("reads at most a bounded piece of its columns between two turns of the event loop", async () => {
    const probe = readsBetweenTurns();
    let seen;
    try {
      const id = await uploadGeneratedAiperf({ records: RECORDS, concurrency: 64, seed: 41 });
      await waitForDrilldown(id);
    } finally {
      seen = probe.stop();
    }
    console.log(
      `timeline of ${RECORDS} requests: ${seen.reads} column reads, at most ${seen.most} between two turns (bound ${TWO_PASS_READS_PER_TURN})`,
    );
    // Read in one piece, the columns would break the bound: every request's are read.
    expect(seen.reads).toBeGreaterThan(2 * TWO_PASS_READS_PER_TURN);
    expect(seen.most).toBeLessThanOrEqual(TWO_PASS_READS_PER_TURN);
  }, 300_000);
});

/**
 * A TensorRT-LLM run's timeline is built from its request rows, each row's times and segments
 * parsed as it is handed over: 4,000 rows a turn held the loop 43–86 ms of CPU at load 21 (a
 * disaggregated request's two texts are some 750 characters). Now a turn comes after a bounded
 * piece of work: at most TRTLLM_TURN.rows rows, fewer once their texts reach TRTLLM_TURN.chars.
 * Counted: the rows and their text characters handed over between two turns, on each store.
 */
describe.each(TEST_STORES)("a TensorRT-LLM run's timeline rows in turns (%s)", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);
  const REQUESTS = 6_000;

  it("hands over a bounded piece of work between two turns of the event loop", async () => {
    const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-turns-"));
    let id: string;
    try {
      const run = generateTrtllmRun({ dir: gen, requests: REQUESTS, seed: 43, mode: "disaggregated" });
      id = await uploadRun(run.files.map((f) => ({ name: path.basename(f), path: f })));
    } finally {
      fs.rmSync(gen, { recursive: true, force: true });
    }
    await waitForDrilldown(id);

    let rows = 0;
    let chars = 0;
    let sinceRows = 0;
    let sinceChars = 0;
    let mostRows = 0;
    let mostChars = 0;
    let running = true;
    const tick = () => {
      mostRows = Math.max(mostRows, sinceRows);
      mostChars = Math.max(mostChars, sinceChars);
      sinceRows = sinceChars = 0;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    let longest = 0;
    try {
      await eachTrtllmTimelineRow(env.app.store.db, id, (r) => {
        const text = r[6].length + r[7].length;
        longest = Math.max(longest, text);
        rows++;
        chars += text;
        sinceRows++;
        sinceChars += text;
      });
    } finally {
      running = false;
      tick();
    }
    console.log(
      `${rows} TensorRT-LLM rows (${Math.round(chars / rows)} characters of times and segments each): at most ${mostRows} rows, ${mostChars} characters between two turns`,
    );
    expect(rows).toBe(REQUESTS);
    // 4,000 rows a turn before: the whole of this run in two turns.
    expect(mostRows).toBeLessThanOrEqual(TRTLLM_TURN.rows);
    expect(mostChars).toBeLessThan(TRTLLM_TURN.chars + longest);
    expect(mostRows).toBeLessThan(REQUESTS / 8);
  }, 300_000);
});

describe("the timeline builder's finish in steps", () => {
  const N = 100_000;
  const fill = (b: TimelineBuilder) => {
    // Pushed out of start order (as a file by end holds them), some starting together.
    for (let k = 0; k < N; k++) {
      const i = (k * 7919) % N;
      const start = Math.floor(i / 3);
      b.push(i, start, start + 50 + (i % 97), { worker: `w${i % 13}`, none: "" }, [
        0,
        start,
        start + 10,
        1,
        start + 10,
        start + 50,
      ]);
    }
    return b;
  };
  const builder = () => new TimelineBuilder("aiperf", [], ["worker", "none"]);

  it("gives the timeline `finish` gives, in steps, a timer set before it firing on the way", async () => {
    const whole = fill(builder()).finish(5, { lanesInStartOrder: true });
    const steps = fill(builder()).finishInSteps(5, { lanesInStartOrder: true });
    let fired = false;
    setImmediate(() => (fired = true));
    let yields = 0;
    let firedBeforeEnd = false;
    for (;;) {
      const r = steps.next();
      if (r.done) {
        expect(r.value).toEqual(whole);
        break;
      }
      yields++;
      await nextTurn();
      if (fired) firedBeforeEnd = true;
    }
    expect(firedBeforeEnd).toBe(true);
    // The sort's runs and merges and every column's copy: some steps per FINISH_STEP requests.
    expect(yields).toBeGreaterThanOrEqual(Math.ceil(N / FINISH_STEP) * 4);
    // Sorted by start, ties by id.
    for (let i = 1; i < N; i++)
      expect(
        whole.startMs[i - 1] < whole.startMs[i] ||
          (whole.startMs[i - 1] === whole.startMs[i] && whole.id[i - 1] < whole.id[i]),
      ).toBe(true);
    expect(atOnce(fill(builder()).finishInSteps(5, { lanesInStartOrder: true }))).toEqual(whole);
  }, 120_000);

  it("cuts the stored first window in turns, the window the route cuts", async () => {
    const t = fill(builder()).finish(5);
    let turns = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const text = await firstWindowInTurns(t).finally(() => (running = false));
    console.log(`first window of ${N} requests: ${turns} turns while it was cut`);
    // Two passes over every request a WINDOW_STEP a turn, before the packing and the parts.
    expect(turns).toBeGreaterThanOrEqual(2 * Math.floor(N / WINDOW_STEP));
    expect(JSON.parse(text).payload).toEqual(
      encodeTimeline(timelineWindow(t, { limit: TIMELINE_DEFAULT_LIMIT })),
    );
  }, 120_000);

  it("writes the stored first window's text a bounded piece between two turns (issue 31)", async () => {
    const t = fill(builder()).finish(5);
    const payload = timelineWindow(t, { limit: TIMELINE_DEFAULT_LIMIT });
    const whole = JSON.stringify(encodeTimeline(payload));
    // The text as it was written in one piece.
    const before = JSON.stringify({
      version: TIMELINE_WINDOW_VERSION,
      pack: TIMELINE_PACK_VERSION,
      limit: TIMELINE_DEFAULT_LIMIT,
      lanesBy: payload.lanesBy,
      payload: encodeTimeline(payload),
    });
    // Characters of JSON text written (JSON.stringify), per turn.
    const tally = tallyPerTurn("chars");
    const stringify = JSON.stringify;
    vi.spyOn(JSON, "stringify").mockImplementation(function (this: unknown, ...a: unknown[]) {
      const out = (stringify as (...x: unknown[]) => string).apply(JSON, a);
      tally.add("chars", out?.length ?? 0);
      return out;
    });
    const text = await firstWindowInTurns(t);
    const most = tally.stop();
    vi.restoreAllMocks();
    console.log(
      `first window of ${N} requests (${whole.length} characters of payload): at most ${most.chars} characters written between two turns`,
    );
    // Slices of 2,048 elements of its arrays (numbers of a few characters each), the skeleton with
    // its arrays as marks; before, the whole text in one turn.
    expect(whole.length).toBeGreaterThan(100_000);
    expect(most.chars).toBeLessThanOrEqual(40_000);
    expect(text === before).toBe(true);
  }, 120_000);
});
