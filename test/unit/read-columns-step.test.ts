/**
 * Issue 31, health within 100 ms during an ingest: an aiperf read's per-request columns (the
 * request log's eight, the turn columns' four) grow in chunks, and every one of them starts a new
 * chunk at the same record, each a zero-filled allocation. At 65,536 values a chunk that record
 * allocated 5,308,416 bytes of them (with the open conversations' six columns, 7.2 MB: 30–47 ms
 * slices of an upload's main thread in `ChunkedColumn.push`, docs/performance.md §The last long
 * ingest slices in steps); at 16,384 a chunk, a quarter.
 *
 * Counted, never timed: the bytes the columns take on in one record, over 300,000 records.
 */
import { describe, expect, it } from "vitest";
import { TurnColumns } from "@/lib/metrics/conversation-turns";
import { RequestLog } from "@/lib/metrics/requests-log";

describe("an aiperf read's request columns", () => {
  it("take on at most some 1.3 MB in one record, however many they hold", () => {
    const log = new RequestLog();
    const turns = new TurnColumns();
    let most = 0;
    let before = 0;
    for (let i = 0; i < 300_000; i++) {
      log.add(
        {
          startNs: BigInt(i) * 1_000_000n,
          endNs: BigInt(i) * 1_000_000n + 5_000_000n,
          ttftMs: 1,
          e2eMs: 5,
          itlMs: 0.1,
          inputTokens: 100,
          outputTokens: 10,
        },
        0,
      );
      turns.add(0, 3, 0, i);
      const after = log.bytes + turns.bytes;
      most = Math.max(most, after - before);
      before = after;
    }
    console.log(`300,000 records: at most ${most} bytes of columns taken on in one record`);
    // 16,384 values a chunk × (7 × 8 + 1 bytes of the log's and 4 + 4 + 8 + 8 of the turn
    // columns'); before, 5,308,416 (65,536 values a chunk).
    expect(most).toBeLessThanOrEqual(16_384 * (7 * 8 + 1 + 4 + 4 + 8 + 8));
    expect(log.length).toBe(300_000);
    expect(log.value("inputTokens", 299_999)).toBe(100);
  });
});
