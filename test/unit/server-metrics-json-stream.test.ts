/**
 * The streaming reader of aiperf's server_metrics_export.json changes no number: on the real
 * export (test/fixtures/aiperf-real-c4, aiperf 0.6.0) and on a 16-endpoint × 1,800-timeslice
 * export of the same shape (test/generators/aiperf-server-metrics-long.mjs, ~330 MB), the
 * analyzer's result (summary block, endpoint rows, chart payloads, warnings, facts) hashes to
 * what the reader it replaced (JSON.parse of the whole document) gave on the same bytes. The
 * digests below were taken with that reader, and taken again when the series payloads gained
 * their `startEpochMs` (the request timeline's clock; a structural diff of the two results showed
 * that field added and nothing else changed), and again when endpoints were listed in natural
 * order (the long export's order-free hash, test/helpers/order-free.ts, is the one the text order
 * gave). Edge documents are checked against the parser of
 * a whole document, which shares the same rules.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { WarningLog } from "@/lib/formats/json-lines";
import { parseServerMetricsJson } from "@/lib/formats/server-metrics-json";
import { readServerMetricsJson } from "@/lib/formats/server-metrics-json-stream";
import { serverMetricsAnalyzer } from "@/lib/ingest/analyzers/server-metrics";
import { migrate, openSqlite } from "@/lib/store/db";
import { writeLongServerMetricsJson } from "../generators/aiperf-server-metrics-long.mjs";
import { diskIngestFile, ingestContext } from "../helpers/analyze";
import { orderFree } from "../helpers/order-free";

const REAL = path.resolve(__dirname, "../fixtures/aiperf-real-c4/server_metrics_export.json");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-sm-stream-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const sha256 = (v: unknown) => createHash("sha256").update(JSON.stringify(v)).digest("hex");

/**
 * sha256 of the analyzer's file report and result as JSON: what the run stores from this file;
 * and of the same with its endpoint order taken out (test/helpers/order-free.ts).
 */
async function analyzedDigests(file: string): Promise<{ raw: string; orderFree: string }> {
  const handle = openSqlite(":memory:");
  await migrate(handle);
  const ctx = ingestContext(handle);
  const analyzer = serverMetricsAnalyzer();
  const report = await analyzer.ingestFile(diskIngestFile(file), ctx);
  const result = await analyzer.finish(ctx);
  return {
    raw: sha256({ report, result }),
    orderFree: sha256(orderFree({ report, result }, result.charts ?? {})),
  };
}

function chunked(text: string | Buffer, size: number): Readable {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text);
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

async function both(text: string, chunk = 7) {
  const streamed = new WarningLog();
  const whole = new WarningLog();
  const a = await readServerMetricsJson(chunked(text, chunk), streamed);
  const b = parseServerMetricsJson(JSON.parse(text.replace(/\bNaN\b/g, "null")), whole);
  return { streamed: a, whole: b, streamedWarnings: streamed.toList(), wholeWarnings: whole.toList() };
}

describe("server-metrics JSON, streamed", () => {
  it("stores byte for byte what the whole-document reader stored, on the real export", async () => {
    const d = await analyzedDigests(REAL);
    // Re-taken when the cache block gained its per-tier fields (external rate, lookups, served
    // tokens, the engines' other signals), and again when the run info gained vLLM's KV-cache
    // settings from cache_config_info; the MetricSet test below pins the two readers equal.
    expect(d.orderFree).toBe("2124cdf98fb57b8dfef2428bd8835a6d6e6b388938dc74cf0c0a7b408ec9df8f");
    expect(d.raw).toBe("adbeff0224d27def0ba15cb68b4ea09cf6e37b3807b2ff1fbcef31e61f06eb8e");
  });

  it("gives the whole-document parse's MetricSet on the real export, in any chunking", async () => {
    const text = fs.readFileSync(REAL, "utf8");
    for (const size of [1, 13, 4096]) {
      const r = await both(text, size);
      expect(r.streamed).toEqual(r.whole);
      expect(r.streamedWarnings).toEqual(r.wholeWarnings);
    }
  });

  it("stores byte for byte what the whole-document reader stored, on 16 endpoints × 1,800 timeslices", async () => {
    const file = path.join(tmp, "server_metrics_export.json");
    await writeLongServerMetricsJson(file, { endpoints: 16, seconds: 1800 });
    expect(fs.statSync(file).size).toBeGreaterThan(300e6);
    const d = await analyzedDigests(file);
    // Endpoints 10.0.0.1 … 10.0.0.16 in natural order: the order-free hash is the one the text
    // order gave (taken before the change), so only the order changed; the raw hash is re-taken.
    // Both re-taken when the cache block gained its per-tier fields, and when the run info gained
    // vLLM's KV-cache settings from cache_config_info.
    expect(d.orderFree).toBe("2c563e6293267fc0cde31987981b2feb078cffb73be2f24dbd201c652d8039a5");
    expect(d.raw).toBe("70990419bc1d415d2e85f4de2fbc484bbd7bcf0e77621d04fd99430398f0ddfe");
    fs.rmSync(file);
  }, 300_000);

  it("follows JSON.parse on edge documents: repeated names, type after series, wrong kinds, strings", async () => {
    const ts = (start: number, extra: string) => `{"start_ns": ${start}, "end_ns": ${start + 1}, ${extra}}`;
    const docs = [
      // `type` after `series`; a repeated family name (the last wins, in the first one's place).
      `{"metrics": {"b:x": {"series": [{"endpoint_url": "http://h:1/metrics", "timeslices": [${ts(1, `"total": 5`)}]}], "type": "counter"},
        "a:y": {"type": "gauge", "series": []},
        "b:x": {"type": "gauge", "series": [{"timeslices": [${ts(1, `"avg": 2, "max": 3`)}]}]}},
        "summary": {"start_time": "2026-01-01T00:00:00", "end_time": "2026-01-01T00:01:00"}}`,
      // Numbers as strings, NaN, missing fields, non-object series and timeslices, nested values.
      `{"metrics": {"g": {"type": "gauge", "series": [1, "s", {"labels": {"x": 1, "n": null, "o": {"a": 1}}, "stats": {"avg": "2.5", "max": NaN, "p": "x"},
        "timeslices": [${ts(1, `"avg": "0.5", "max": {"v": 1}`)}, 7, ${ts(2, `"min": 1`)}, ${ts(3, `"avg": 1, "avg": 4`)}]}]},
        "h": {"type": "histogram", "series": [{"timeslices": [${ts(5, `"sum": 9, "buckets": {"1.0": 3, "+Inf": 4}`)}]}]},
        "bad": [], "worse": {"series": {}}, "10": {"series": []}, "2": {"series": []}, "__proto__": {"series": []}},
        "summary": {"endpoint_info": {"http://h:1/metrics": {"duration_seconds": 30}}}}`,
      `{"metrics": 3}`,
      `{"summary": {}}`,
      `[{"metrics": {}}]`,
      `{"metrics": {"a": {"series": []}}, "metrics": {"b": {"series": [{"timeslices": "none"}]}}}`,
    ];
    for (const text of docs)
      for (const size of [1, 5, 1 << 16]) {
        const r = await both(text, size);
        expect(r.streamed, text).toEqual(r.whole);
        expect(r.streamedWarnings, text).toEqual(r.wholeWarnings);
      }
  });

  it("refuses a cut-off or malformed export with the byte where it breaks, keeping nothing of it", async () => {
    const text = fs.readFileSync(REAL);
    const warnings = new WarningLog();
    expect(await readServerMetricsJson(chunked(text.subarray(0, 100_000), 4096), warnings)).toBeNull();
    expect(warnings.toList()).toEqual([
      {
        message:
          "the server-metrics JSON is cut off: the document stops after 100,000 bytes, unfinished; none of its metrics were kept (part of an export counts only some endpoints and intervals); the file is stored as sent: upload the complete export",
      },
    ]);
    const broken = Buffer.concat([text.subarray(0, 5000), Buffer.from("}"), text.subarray(5000)]);
    const w2 = new WarningLog();
    expect(await readServerMetricsJson(chunked(broken, 4096), w2)).toBeNull();
    expect(w2.toList()[0].message).toMatch(/at byte 5000; nothing of it was read$/);
  });
});
