import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { AGENT_SESSION_PAGES } from "@/lib/api/chart-catalog";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { storedText } from "@/lib/store/chart-payloads";
import { generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { diskIngestFile, runAnalyzer } from "../helpers/analyze";

// What a multi-turn run's agent-session pages hold from the aiperf analyzer's finish to the commit
// (docs/performance.md §Ingest memory of an aiperf upload). Every session is stored in pages; they
// were held as session and turn objects until the commit, which made each page's JSON beside them:
// twice the pages' text at the commit (the objects as much again as the text), some 90 MB of
// text at 600,000 requests. Now each page is made JSON text as it fills and the objects go at
// once: the commit stores that text as it is. Pinned by bytes, never by time.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-session-pages-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("agent-session pages until the commit", () => {
  it("hold their stored text and no more: at most 1.4 bytes a character with the commit's text", async () => {
    generateMultiTurnRun(dir, { conversations: 3_000, maxTurns: 7, concurrency: 32, errorEvery: 37 });
    const { result, handle } = await runAnalyzer(aiperfAnalyzer(), [
      diskIngestFile(path.join(dir, "profile_export.jsonl")),
    ]);
    handle.close();
    const charts = result.charts as Record<string, unknown>;
    const keys = Object.keys(charts).filter((k) => AGENT_SESSION_PAGES.fromKey(k) !== null);
    expect(keys.length).toBeGreaterThan(5);

    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const used = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed;
    };
    // The pages as the commit holds them: the analyzer's payloads and the text stored for each.
    let texts: string[] | null = keys.map((k) => storedText(charts[k]));
    const chars = texts.reduce((n, t) => n + t.length, 0);
    const held = used();
    for (const k of keys) delete charts[k];
    texts = null;
    const without = used();
    const perChar = (held - without) / chars;
    console.log(
      `agent-session pages: ${keys.length} pages, ${chars} characters, ${(held - without) >> 10} KiB held (${perChar.toFixed(2)} bytes a character)`,
    );
    // With the session and turn objects beside the text: 2.2 bytes a character (4.3 MB for 2.0 MB of text).
    expect(perChar).toBeLessThanOrEqual(1.4);
  }, 120_000);
});
