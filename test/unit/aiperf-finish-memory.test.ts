import { describe, expect, it } from "vitest";
import { AgentSessionColumns } from "@/lib/metrics/agent-sessions";
import { ConversationIndex, PossibleReuse, TurnColumns } from "@/lib/metrics/conversation-turns";
import { QueueWaits } from "@/lib/metrics/aiperf-queue-wait";
import { RequestLog } from "@/lib/metrics/requests-log";
import { LOG_BYTES, TURN_BYTES, logOf } from "../helpers/request-log-values";

// What the aiperf analyzer's `finish` holds (docs/performance.md §Ingest memory of an aiperf
// upload): each column trimmed to its values before the summary's copies are made, and the
// read-time structures let go. Pinned by bytes and counts, never by time.

describe("request log trimmed at finish", () => {
  it("holds exactly its values' bytes after compact, with the same values and statistics", () => {
    const n = 5000;
    const log = logOf(n);
    // Grown by doubling: 8,192 rows of capacity for 5,000 values.
    expect(log.bytes).toBe(8192 * LOG_BYTES);
    const before = {
      cols: Object.fromEntries(Object.entries(log.cols).map(([k, v]) => [k, Array.from(v.subarray(0, n))])),
      flags: Array.from(log.flags.subarray(0, n)),
      ttft: Array.from(log.sortedMeasured("ttftMs")),
      measured: Array.from(log.measuredIndices()),
    };
    log.compact();
    expect(log.bytes).toBe(n * LOG_BYTES);
    expect(log.length).toBe(n);
    expect(Object.fromEntries(Object.entries(log.cols).map(([k, v]) => [k, Array.from(v)]))).toEqual(
      before.cols,
    );
    expect(Array.from(log.flags)).toEqual(before.flags);
    expect(Array.from(log.sortedMeasured("ttftMs"))).toEqual(before.ttft);
    expect(Array.from(log.measuredIndices())).toEqual(before.measured);
    // A log trimmed and added to again grows as before (its values back in chunks, the last one doubled).
    log.add({ startNs: 2n, endNs: 3n, ttftMs: 1, e2eMs: 1, itlMs: 1, inputTokens: 1, outputTokens: 1 }, 0);
    expect(log.length).toBe(n + 1);
    expect(log.bytes).toBe(2 * n * LOG_BYTES);
    expect(log.cols.ttftMs[n]).toBe(1);
  });

  it("keeps each sorted column as an array of exactly its values, equal to a plain sort", () => {
    const n = 5000;
    const log = logOf(n);
    log.compact();
    // Some TTFTs are missing: the sorted values are fewer than the measured requests.
    const ttft = log.sortedMeasured("ttftMs");
    const plain = Array.from(log.measuredIndices())
      .map((i) => log.cols.ttftMs[i])
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    expect(ttft.length).toBeLessThan(log.measuredIndices().length);
    expect(Array.from(ttft)).toEqual(plain);
    // Held by the summary and the verdict values until the drill-down is over: no slack behind it.
    expect(ttft.buffer.byteLength).toBe(ttft.length * 8);
    expect(log.sortedMeasured("ttftMs")).toBe(ttft);
  });

  it("grows again from an empty compacted log", () => {
    const log = new RequestLog();
    log.compact();
    expect(log.bytes).toBe(0);
    log.add({ startNs: 1n, endNs: 2n, ttftMs: 1, e2eMs: 1, itlMs: 1, inputTokens: 1, outputTokens: 1 }, 0);
    expect(log.length).toBe(1);
    expect(log.bytes).toBe(256 * LOG_BYTES);
  });
});

describe("turn and session columns at finish", () => {
  it("trims the turn columns to their values and releases them", () => {
    const turns = new TurnColumns();
    const n = 3000;
    for (let i = 0; i < n; i++) turns.add(i % 4, i % 5 === 0 ? null : i, i % 7, i % 11);
    expect(turns.bytes).toBe(4096 * TURN_BYTES);
    const kept = [Array.from(turns.turn.subarray(0, n)), Array.from(turns.possible.subarray(0, n))];
    turns.compact();
    expect(turns.bytes).toBe(n * TURN_BYTES);
    expect([Array.from(turns.turn), Array.from(turns.possible)]).toEqual(kept);
    expect(turns.cached[6]).toBe(6);
    expect(turns.cached[0]).toBeNaN();
    expect(turns.multiTurn).toBe(true);
    turns.release();
    expect([turns.length, turns.bytes]).toEqual([0, 0]);
  });

  it("releases the open conversations' ids and slots, keeping the count of conversations", () => {
    const reuse = new PossibleReuse();
    const n = 5000;
    for (let i = 0; i < n; i++) reuse.next(`conversation-${i}`, 0, 100, 10, false);
    expect(reuse.held.ids).toBe(n);
    expect(reuse.held.bytes).toBeGreaterThanOrEqual(n * (4 + 8 + 8 + 1 + 4 + 4));
    reuse.release();
    expect(reuse.held).toEqual({ ids: 0, bytes: 0 });
    expect(reuse.conversations).toBe(n);
    // Still usable: a conversation seen again after the release is a new one.
    expect(reuse.next("conversation-1", 1, 120, 5, false)).toBeNaN();
    expect(reuse.next("conversation-1", 2, 140, 5, false)).toBe(125);
    expect(reuse.conversations).toBe(n + 1);
  });

  it("releases the conversation index and the sessions' ids and column", () => {
    const index = new ConversationIndex();
    const sessions = new AgentSessionColumns();
    const n = 3000;
    for (let i = 0; i < n; i++) {
      expect(index.of(`c-${i}`)).toBe(i);
      sessions.add(`s-${i % 1000}`, null, null);
    }
    expect(index.size).toBe(n);
    expect(sessions.held).toEqual({ ids: 1000, bytes: 4096 * 4 });
    sessions.compact();
    expect(sessions.held).toEqual({ ids: 1000, bytes: n * 4 });
    expect(sessions.session[n - 1]).toBe((n - 1) % 1000);
    sessions.release();
    index.release();
    expect(sessions.held).toEqual({ ids: 0, bytes: 0 });
    expect([sessions.sessionCount, sessions.idOf(0), sessions.sessionBytes]).toEqual([0, undefined, 0]);
    expect([index.size, [...index.ids()].length]).toEqual([0, 0]);
  });

  it("keeps the queue-wait figures it gave before the waits are released", () => {
    const q = new QueueWaits();
    for (let i = 0; i < 1000; i++) q.add(i % 50, false, 100, null);
    const info = q.info();
    expect(info.queueWaitCount).toBe(1000);
    q.release();
    expect(q.count).toBe(0);
  });
});
