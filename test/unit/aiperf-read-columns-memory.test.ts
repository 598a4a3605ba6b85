import { describe, expect, it } from "vitest";
import { AgentSessionColumns } from "@/lib/metrics/agent-sessions";
import { QueueWaits } from "@/lib/metrics/aiperf-queue-wait";
import { COLUMN_CHUNK, ChunkedColumn } from "@/lib/metrics/chunked-column";
import { NO_TURN, TurnColumns } from "@/lib/metrics/conversation-turns";
import { RequestLog } from "@/lib/metrics/requests-log";
import {
  LOG_BYTES,
  TURN_BYTES,
  requestFlagsOf as flagsOf,
  requestValuesOf as valuesOf,
} from "../helpers/request-log-values";

// What the aiperf read holds while it fills its per-request columns (docs/performance.md §Ingest
// memory of an aiperf upload): a column grown by doubling held up to twice its values (1,048,576
// rows for 600,000 requests) and left the old copy as garbage at every growth; chunked, it holds
// its values and at most one chunk more, and a full chunk is never copied. Pinned by bytes, never
// by time.

/** Past 2^18 rows, where a doubling column holds 2^19 */
const N = 300_000;
/** At most one chunk of slack a column */
const slack = (bytesPerRow: number) => COLUMN_CHUNK * bytesPerRow;

/** The first index where two columns differ (NaN equal to NaN), or -1 */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}
describe("the read's request log", () => {
  it("never holds more than its values and one chunk a column while it grows", () => {
    const log = new RequestLog();
    let worst = 0;
    for (let i = 0; i < N; i++) {
      log.add(valuesOf(i), flagsOf(i));
      // Checked at every chunk boundary and at the end (a doubling log is at 2^19 rows from 2^18 on).
      if ((i & (COLUMN_CHUNK - 1)) === 0 || i === N - 1)
        worst = Math.max(worst, log.bytes - (i + 1) * LOG_BYTES);
    }
    expect(worst).toBeLessThanOrEqual(slack(LOG_BYTES));
    expect(log.bytes).toBeLessThanOrEqual(N * LOG_BYTES + slack(LOG_BYTES));
  });

  it("hands out exact columns with the values added, and keeps them across a later add", () => {
    const log = new RequestLog();
    const n = 2 * COLUMN_CHUNK + 11;
    for (let i = 0; i < n; i++) log.add(valuesOf(i), flagsOf(i));
    // Read while filled, without making the column whole.
    expect(log.value("ttftMs", COLUMN_CHUNK)).toBe(valuesOf(COLUMN_CHUNK).ttftMs ?? NaN);
    const ttft = log.cols.ttftMs;
    expect(ttft.buffer.byteLength).toBe(n * 8);
    expect(log.flags.buffer.byteLength).toBe(n);
    expect(log.bytes).toBe(n * LOG_BYTES);
    for (const i of [0, 1, COLUMN_CHUNK - 1, COLUMN_CHUNK, n - 1]) {
      const v = valuesOf(i);
      expect(log.cols.startMs[i]).toBe(Number(v.startNs! - 1_000_000_000n) / 1e6);
      expect(ttft[i]).toBe(v.ttftMs ?? NaN);
      expect(log.cols.inputTokens[i]).toBe(v.inputTokens);
      expect(log.flags[i]).toBe(flagsOf(i));
    }
    // The same arrays until the next add; then the values move back into chunks and grow.
    expect(log.cols.ttftMs).toBe(ttft);
    log.add(valuesOf(n), flagsOf(n));
    expect(log.length).toBe(n + 1);
    expect(log.cols.ttftMs.length).toBe(n + 1);
    expect(firstDifference(log.cols.ttftMs.subarray(0, n), ttft)).toBe(-1);
    expect(log.cols.ttftMs[n]).toBe(valuesOf(n).ttftMs ?? NaN);
    // Another log filled from it (trials) gets the same values.
    const copy = new RequestLog();
    copy.baseNs = log.baseNs;
    for (let i = 0; i < log.length; i++) copy.copyFrom(log, i);
    expect(firstDifference(copy.cols.e2eMs, log.cols.e2eMs)).toBe(-1);
    expect(firstDifference(copy.flags, log.flags)).toBe(-1);
  });
});

describe("the read's turn, session and queue-wait columns", () => {
  it("turn columns hold their values and one chunk a column, with the same values", () => {
    const turns = new TurnColumns();
    for (let i = 0; i < N; i++) turns.add(i % 5 === 0 ? null : i % 4, i % 3 === 0 ? null : i, i % 7, i % 11);
    expect(turns.bytes).toBeLessThanOrEqual(N * TURN_BYTES + slack(TURN_BYTES));
    for (const i of [0, 1, COLUMN_CHUNK, N - 1]) {
      expect(turns.turn[i]).toBe(i % 5 === 0 ? NO_TURN : i % 4);
      expect(turns.cached[i]).toBe(i % 3 === 0 ? NaN : i);
      expect([turns.possible[i], turns.conv[i]]).toEqual([i % 7, i % 11]);
    }
    expect(turns.bytes).toBe(N * TURN_BYTES);
    // A write to a column handed out is kept (inputs.json's estimate replaces the records').
    turns.possible[5] = 42;
    expect(turns.possible[5]).toBe(42);
  });

  it("the session column holds its values and one chunk", () => {
    const sessions = new AgentSessionColumns();
    for (let i = 0; i < N; i++) sessions.add(`s-${i % 1000}`, null, null);
    expect(sessions.held.bytes).toBeLessThanOrEqual(N * 4 + slack(4));
    expect(sessions.session[N - 1]).toBe((N - 1) % 1000);
    expect(sessions.held.bytes).toBe(N * 4);
  });

  it("the queue waits are typed columns of their values, with the same figures", () => {
    const q = new QueueWaits();
    const plain: number[] = [];
    for (let i = 0; i < N; i++) {
      const w = (i * 7919) % 1000;
      q.add(w, false, 100, null);
      plain.push(w);
    }
    const held = (q as unknown as { waits: ChunkedColumn<Float64Array> }).waits;
    expect(held).toBeInstanceOf(ChunkedColumn);
    expect(held.bytes).toBeLessThanOrEqual(N * 8 + slack(8));
    const info = q.info();
    expect(info.queueWaitCount).toBe(N);
    const sorted = plain.slice().sort((a, b) => a - b);
    expect(info.queueWaitP50Ms).toBe((sorted[N / 2 - 1] + sorted[N / 2]) / 2);
  });
});

describe("chunked column made whole", () => {
  it("gives one exact array of its values, which it then holds in place of its chunks", () => {
    const c = new ChunkedColumn(Float64Array);
    const n = 3 * COLUMN_CHUNK + 17;
    for (let i = 0; i < n; i++) c.push(i + 0.5);
    const a = c.array();
    expect(a.length).toBe(n);
    expect(a.buffer.byteLength).toBe(n * 8);
    expect(c.bytes).toBe(n * 8);
    expect(a[COLUMN_CHUNK]).toBe(COLUMN_CHUNK + 0.5);
    expect(c.array()).toBe(a);
    // Writes are the column's; a push after moves it back into chunks, values kept.
    a[3] = -1;
    expect(c.get(3)).toBe(-1);
    c.push(7);
    expect([c.length, c.get(3), c.get(n - 1), c.get(n)]).toEqual([n + 1, -1, n - 1 + 0.5, 7]);
    expect(c.bytes).toBeLessThanOrEqual((n + 1) * 8 + COLUMN_CHUNK * 8);
    expect(Array.from(c.array().subarray(0, 5))).toEqual([0.5, 1.5, 2.5, -1, 4.5]);
  });

  it("an empty or short column made whole grows again from it", () => {
    const c = new ChunkedColumn(Int32Array);
    expect(c.array().length).toBe(0);
    c.push(1);
    c.push(2);
    expect(Array.from(c.array())).toEqual([1, 2]);
    for (let i = 0; i < 1000; i++) c.push(i);
    expect(c.length).toBe(1002);
    expect(c.get(1001)).toBe(999);
  });
});
