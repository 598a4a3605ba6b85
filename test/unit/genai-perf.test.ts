/**
 * genai-perf artifacts (docs/formats.md §genai-perf): samples follow perf_analyzer's
 * profile_export.json and genai-perf/genai_perf/export_data/json_exporter.py
 * (test/generators/genai-perf.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { agreementPayloadSchema } from "@/lib/api/aiperf-charts";
import { detectKind } from "@/lib/formats/detect";
import { benchImportAnalyzer } from "@/lib/ingest/analyzers/bench-import";
import { diskIngestFile, runAnalyzer } from "../helpers/analyze";
import { genaiPerfArtifacts } from "../generators/genai-perf";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "genai-perf-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, doc: unknown, ord = 0) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, JSON.stringify(doc, null, 2));
  return diskIngestFile(p, ord);
};

describe("genai-perf", () => {
  const { exported, summary } = genaiPerfArtifacts({ requests: 60, concurrency: 3 });

  it("detects the export and the summary (not an aiperf summary)", () => {
    expect(detectKind(Buffer.from(JSON.stringify(exported, null, 2)), true).kind).toBe("genai-perf-export");
    expect(detectKind(Buffer.from(JSON.stringify(summary, null, 2)), true).kind).toBe("genai-perf-summary");
  });

  it("times each request from its stamps and agrees with genai-perf's TTFT and latency", async () => {
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [
      file("profile_export.json", exported),
      file("profile_export_genai_perf.json", summary, 1),
    ]);
    const r = result.requests!;
    expect(r).toMatchObject({ source: "aiperf", count: 60, errorCount: 0 });
    const first = exported.experiments[0].requests[0];
    const rows = await handle.db.selectFrom("aiperf_requests").selectAll().orderBy("line").execute();
    expect(rows[0].ttft_ms).toBe((first.response_timestamps[0] - first.timestamp) / 1e6);
    const agreement = agreementPayloadSchema.parse(result.charts!["aiperf-agreement"]);
    expect(agreement.rows.filter((x) => !x.agrees)).toEqual([]);
    expect(agreement.rows.map((x) => x.metric)).toEqual(
      expect.arrayContaining(["TTFT (ms)", "End-to-end latency (ms)"]),
    );
    // Token counts need genai-perf's tokenizer: its own statistics, not zeros.
    expect(r.outputTokens).toMatchObject({ mean: 14.5, p50: 14 });
    expect(r.itlMs).toMatchObject({ mean: 11.2 });
    expect(result.info).toMatchObject({
      benchmarkTool: "genai-perf",
      concurrency: 3,
      benchmarkToolVersion: "2.40.0",
    });
    await handle.close();
  });

  it("gives genai-perf's own figures from the summary alone", async () => {
    const { result, handle } = await runAnalyzer(benchImportAnalyzer(), [file("only.json", summary)]);
    expect(result.requests).toMatchObject({ source: "tool-summary", count: 60 });
    expect(result.requests!.ttftMs!.p90).toBe((summary.time_to_first_token as Record<string, unknown>).p90);
    await handle.close();
  });
});
