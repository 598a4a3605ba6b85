import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AGENT_SESSION_PAGES } from "@/lib/api/chart-catalog";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { storedText } from "@/lib/store/chart-payloads";
import { generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { diskIngestFile, runAnalyzer } from "../helpers/analyze";
import { heapInUse } from "../helpers/heap";

// What a multi-turn run's agent-session pages hold from the aiperf analyzer's finish to the commit
// (docs/performance.md §Agent-session pages made as text). Every session is stored in pages; they
// were held as session and turn objects until the commit, which made each page's JSON beside them
// (some 90 MB of text at 600,000 requests, the objects as much again). Now each page is made its
// JSON text as it fills, the objects let go at once, and the text is kept packed until the
// commit unpacks it a few pages at a time to store it. Pinned by bytes, never by time.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-session-pages-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("agent-session pages until the commit", () => {
  it("hold their text packed: at most 0.4 bytes a character of it, and store that text", async () => {
    generateMultiTurnRun(dir, { conversations: 3_000, maxTurns: 7, concurrency: 32, errorEvery: 37 });
    const { result, handle } = await runAnalyzer(aiperfAnalyzer(), [
      diskIngestFile(path.join(dir, "profile_export.jsonl")),
    ]);
    handle.close();
    const charts = result.charts as Record<string, unknown>;
    const keys = Object.keys(charts).filter((k) => AGENT_SESSION_PAGES.fromKey(k) !== null);
    expect(keys.length).toBeGreaterThan(5);
    // The text stored is each page's JSON, as the analyzer's result serialises.
    let chars = 0;
    for (const k of keys) {
      const text = storedText(charts[k]);
      expect(text).toBe(JSON.stringify(charts[k]));
      expect(JSON.parse(text)).toHaveProperty("sessions");
      chars += text.length;
    }

    const held = heapInUse();
    for (const k of keys) delete charts[k];
    const without = heapInUse();
    const perChar = (held - without) / chars;
    console.log(
      `agent-session pages: ${keys.length} pages, ${chars} characters, ${(held - without) >> 10} KiB held (${perChar.toFixed(2)} bytes a character)`,
    );
    // As session and turn objects: 1.0 bytes a character (2.0 MB for 2.0 MB of text), and the
    // commit made the text beside them.
    expect(perChar).toBeLessThanOrEqual(0.4);
  }, 120_000);
});
