/**
 * A run whose upload holds both aiperf server-metrics exports of the same scrapes counts the JSON
 * export only (docs/formats.md §Server metrics). When the JSON export comes first, as it does in
 * a folder uploaded in name order, the JSONL scrapes are stored but not read: the file's report
 * says so, and the run's numbers are the JSON export's alone. Real files: aiperf 0.6.0,
 * test/fixtures/aiperf-real-c4.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { IngestFile } from "@/lib/ingest/analyzer";
import { serverMetricsAnalyzer } from "@/lib/ingest/analyzers/server-metrics";
import { diskIngestFile, runAnalyzer } from "../helpers/analyze";

const DIR = path.resolve(__dirname, "../fixtures/aiperf-real-c4");
const JSON_EXPORT = path.join(DIR, "server_metrics_export.json");
const JSONL_EXPORT = path.join(DIR, "server_metrics_export.jsonl");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-sm-skip-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The file, counting how often its bytes are opened. */
function counted(file: string, ord: number): { file: IngestFile; opened: () => number } {
  const f = diskIngestFile(file, ord);
  let opens = 0;
  return {
    file: {
      ...f,
      open: () => {
        opens++;
        return f.open();
      },
    },
    opened: () => opens,
  };
}

/** What the run stores from the server metrics, warnings aside. */
function numbers(r: Awaited<ReturnType<typeof runAnalyzer>>["result"]) {
  return { sm: r.serverMetrics, endpoints: r.endpoints, charts: r.charts, info: r.info, facts: r.facts };
}

describe("server-metrics JSONL beside the JSON export", () => {
  it("is not read when the JSON export came first, and says so in its report", async () => {
    const json = counted(JSON_EXPORT, 0);
    const jsonl = counted(JSONL_EXPORT, 1);
    const both = await runAnalyzer(serverMetricsAnalyzer(), [json.file, jsonl.file]);
    expect(jsonl.opened()).toBe(0);
    expect(both.reports[1]).toEqual({
      records: 0,
      skipped: 0,
      warnings: [],
      meta: {
        notRead: true,
        note: "not read: the JSON export server_metrics_export.json of the same scrapes is used",
      },
    });
    const alone = await runAnalyzer(serverMetricsAnalyzer(), [diskIngestFile(JSON_EXPORT)]);
    expect(numbers(both.result)).toEqual(numbers(alone.result));
    expect(both.result.info?.serverMetricsExport).toBe("json");
    expect(both.result.warnings).toContain(
      "server metrics: server_metrics_export.jsonl not counted; the json export of the same scrapes is used",
    );
  });

  it("gives the same numbers when the JSONL came first and was read", async () => {
    const jsonl = counted(JSONL_EXPORT, 0);
    const first = await runAnalyzer(serverMetricsAnalyzer(), [jsonl.file, diskIngestFile(JSON_EXPORT, 1)]);
    expect(jsonl.opened()).toBe(1);
    expect(first.reports[0].records).toBeGreaterThan(0);
    const after = await runAnalyzer(serverMetricsAnalyzer(), [
      diskIngestFile(JSON_EXPORT, 0),
      diskIngestFile(JSONL_EXPORT, 1),
    ]);
    expect(numbers(first.result)).toEqual(numbers(after.result));
    expect(first.result.warnings).toEqual(after.result.warnings);
  });

  it("is read and counted when the JSON export before it could not be read", async () => {
    const broken = path.join(tmp, "server_metrics_export.json");
    fs.writeFileSync(broken, fs.readFileSync(JSON_EXPORT).subarray(0, 5000));
    const jsonl = counted(JSONL_EXPORT, 1);
    const r = await runAnalyzer(serverMetricsAnalyzer(), [diskIngestFile(broken, 0), jsonl.file]);
    expect(jsonl.opened()).toBe(1);
    expect(r.reports[1].records).toBeGreaterThan(0);
    expect(r.result.info?.serverMetricsExport).toBe("jsonl");
  });
});
