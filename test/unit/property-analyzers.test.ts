/**
 * Property-based: real sample files, mutated (fields replaced by values of the wrong type,
 * lines cut, bytes flipped, lines duplicated), go through detection and the full analyzer set
 * exactly as an upload does. No throw may escape, every line is accounted for, and what would be
 * stored validates against the wire schemas.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { summaryBlocksSchema } from "@/lib/api/schemas";
import { detectKind, DETECT_HEAD_BYTES } from "@/lib/formats/detect";
import type { AnalyzerResult, IngestContext, IngestFile } from "@/lib/ingest/analyzer";
import { createAnalyzers } from "@/lib/ingest/analyzers";
import { mergeCharts, mergeResults } from "@/lib/ingest/merge-results";
import { migrate, openSqlite, type DbHandle } from "@/lib/store/db";
import { finishWithDrilldown } from "../helpers/analyze";
import { chartByKey } from "@/lib/api/chart-catalog";

const FIX = path.resolve(__dirname, "../fixtures");
const SAMPLES = [
  "aiperf/qwen-c4__profile_export.jsonl",
  "aiperf/qwen-c4__gpu_telemetry_export.jsonl",
  "aiperf/qwen-c4__profile_export_aiperf.json",
  "aiperf/real-v0.10__profile_export_aiperf.csv",
  "aiperf/doc-vllm__server_metrics_export.json",
  "aiperf/doc-vllm__server_metrics_export.jsonl",
  "aiperf/doc-error-record__profile_export.jsonl",
  "trtllm/perf_metrics-disagg-reconstructed.jsonl",
  "trtllm/perf_metrics-server-reconstructed-aggregated.jsonl",
  "trtllm/illustrative-perf_metrics-server-gen-worker.jsonl",
  "trtllm/dynamo_trtllm_worker_metrics.prom",
].filter((f) => fs.existsSync(path.join(FIX, f)));

const texts = SAMPLES.map((f) => ({
  name: path.basename(f),
  text: fs.readFileSync(path.join(FIX, f), "utf8"),
}));

/**
 * A fresh seed every run, so each run tries new inputs (random by default); a failure names it,
 * and RUNLENS_PROPERTY_SEED=<seed> replays that run's inputs exactly.
 */
const SEED = propertySeed(process.env.RUNLENS_PROPERTY_SEED);

function propertySeed(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return (Math.random() * 0x1_0000_0000) | 0;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`RUNLENS_PROPERTY_SEED must be an integer, not ${raw}`);
  return seed;
}

/** fc.assert on this run's seed; a failure says how to replay it. */
async function checkProperty<Ts extends [unknown, ...unknown[]]>(
  property: fc.IAsyncProperty<Ts>,
  numRuns: number,
): Promise<void> {
  try {
    await fc.assert(property, { numRuns, seed: SEED });
  } catch (err) {
    if (err instanceof Error) err.message = `replay with RUNLENS_PROPERTY_SEED=${SEED}\n${err.message}`;
    throw err;
  }
}

/** Values a hostile or broken writer puts where a number, string or object belongs. */
const wrongValue = fc.oneof(
  fc.constantFrom(
    null,
    "",
    "NaN",
    "1e999",
    -1,
    0,
    -0.0,
    1e308,
    -1e308,
    true,
    [],
    {},
    [null],
    "<img src=x onerror=alert(1)>",
  ),
  fc.string({ maxLength: 8 }),
  fc.double(),
  fc.integer(),
  fc.jsonValue({ maxDepth: 2 }),
);

type Json = unknown;

function paths(v: Json, prefix: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  if (Array.isArray(v)) v.slice(0, 5).forEach((x, i) => paths(x, [...prefix, i], out));
  else if (v && typeof v === "object")
    for (const [k, x] of Object.entries(v)) {
      out.push([...prefix, k]);
      paths(x, [...prefix, k], out);
    }
  return out;
}

function setPath(v: Json, p: Array<string | number>, value: Json): void {
  let cur = v as Record<string | number, Json>;
  for (const k of p.slice(0, -1)) cur = cur[k] as Record<string | number, Json>;
  cur[p[p.length - 1]] = value;
}

/** Replaces fields of JSON lines / documents with wrong values. */
function mutateJson(text: string, picks: Array<[number, number, Json]>): string {
  const lines = text.split("\n");
  const asLines = lines
    .filter((l) => l.trim())
    .every((l) => /^[{[]/.test(l.trim()) && safeParse(l) !== undefined);
  const units = asLines ? lines : [text];
  const out = units.map((u) => u);
  for (const [unitPick, pathPick, value] of picks) {
    const i = unitPick % units.length;
    const doc = safeParse(out[i]);
    if (doc === undefined) continue;
    const ps = paths(doc);
    if (ps.length === 0) continue;
    setPath(doc, ps[pathPick % ps.length], value);
    out[i] = JSON.stringify(doc);
  }
  return out.join(asLines ? "\n" : "");
}

function safeParse(s: string): Json | undefined {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

const textMutation = fc.oneof(
  fc.record({ op: fc.constant("cut" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("flip" as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant("dup" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("crlf" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), s: fc.string({ maxLength: 20 }) }),
);

type TextMutation = typeof textMutation extends fc.Arbitrary<infer T> ? T : never;

function mutateText(buf: Buffer, ms: TextMutation[]): Buffer {
  let b = buf;
  for (const m of ms) {
    if (b.length === 0) break;
    const at = m.at % b.length;
    if (m.op === "cut") b = b.subarray(0, at);
    else if (m.op === "flip") {
      b = Buffer.from(b);
      b[at] = m.byte;
    } else if (m.op === "dup") {
      const lines = b.toString("latin1").split("\n");
      const i = at % lines.length;
      lines.splice(i, 0, lines[i]);
      b = Buffer.from(lines.join("\n"), "latin1");
    } else if (m.op === "crlf") b = Buffer.from(b.toString("latin1").replace(/\n/g, "\r\n"), "latin1");
    else b = Buffer.concat([b.subarray(0, at), Buffer.from(m.s), b.subarray(at)]);
  }
  return b;
}

let h: DbHandle;
let runNo = 0;
/** Records the analyzers accepted across all runs: proves the inputs reached real parsing. */
let recordsSeen = 0;
beforeAll(async () => {
  h = openSqlite(":memory:");
  await migrate(h);
});
afterAll(async () => h.close());

/** Ingests one file the way the pipeline does; returns the file report. */
async function ingest(name: string, bytes: Buffer) {
  const ctx: IngestContext = {
    runId: `prop-${++runNo}`,
    db: h.db,
    dialect: "sqlite",
    limits: { maxLineBytes: 1 << 20, maxJsonDocumentBytes: 8 << 20 },
  };
  const detected = detectKind(bytes.subarray(0, DETECT_HEAD_BYTES), bytes.length <= DETECT_HEAD_BYTES);
  const file: IngestFile = {
    id: `f${runNo}`,
    ord: 0,
    name,
    kind: detected.kind,
    format: detected.format,
    bytes: bytes.length,
    sha256: "0".repeat(64),
    open: async () => Readable.from([bytes]),
  };
  const analyzers = createAnalyzers();
  const analyzer = analyzers.find((a) => a.accepts(file));
  const report = analyzer ? await analyzer.ingestFile(file, ctx) : null;
  if (report && analyzer?.name !== "record-counter") recordsSeen += report.records;
  const results = [];
  for (const a of analyzers) results.push(await finishWithDrilldown(a, ctx));
  expectServable(results);
  return report && { ...report, kind: detected.kind };
}

// Every chart an analyzer may store is checked against its catalog schema (a series chart's
// against its family's): a chart the catalog does not know fails.
const chartSchema = (key: string): z.ZodType | null => chartByKey(key)?.schema ?? null;

/** What a route serves: the stored JSON read back (NaN and ±Infinity come back as null). */
const served = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

/**
 * Whatever the input, what ingest stores must be what the routes promise: the merged summary
 * blocks and every chart payload, read back from JSON, validate against their wire schemas.
 */
function expectServable(results: AnalyzerResult[]): void {
  const blocks = summaryBlocksSchema.safeParse(served(mergeResults(results)));
  expect(blocks.success, blocks.error?.message).toBe(true);
  for (const [key, payload] of Object.entries(mergeCharts(results))) {
    const schema = chartSchema(key);
    expect(schema, `no schema for chart ${key}`).not.toBeNull();
    const chart = schema!.safeParse(served(payload));
    expect(chart.success, `${key}: ${chart.error?.message}`).toBe(true);
  }
}

describe("analyzers on mutated real files", () => {
  it("never throw when fields get values of the wrong type", async () => {
    await checkProperty(
      fc.asyncProperty(
        fc.constantFrom(...texts),
        fc.array(fc.tuple(fc.nat(), fc.nat(), wrongValue), { minLength: 1, maxLength: 6 }),
        async (sample, picks) => {
          const text = mutateJson(sample.text, picks);
          const report = await ingest(sample.name, Buffer.from(text));
          if (report) {
            expect(report.warnings.length).toBeLessThanOrEqual(21);
            // Still read as aiperf records: every line is either a record or a skipped line.
            const lines = text.split("\n").filter((l) => l.trim() !== "").length;
            if (report.kind === "aiperf-records") expect(report.records + report.skipped).toBe(lines);
            else if (report.kind === "trtllm-perf-metrics" && sample.name.endsWith(".jsonl"))
              expect(report.records + report.skipped).toBeLessThanOrEqual(lines);
          }
        },
      ),
      400,
    );
    expect(recordsSeen).toBeGreaterThan(400);
    // 400 ingests of real files: minutes on a loaded machine, not a hang.
  }, 240_000);

  it("never throw when bytes are cut, flipped, inserted or lines duplicated", async () => {
    await checkProperty(
      fc.asyncProperty(
        fc.constantFrom(...texts),
        fc.array(textMutation, { minLength: 1, maxLength: 4 }),
        async (sample, ms) => {
          const bytes = mutateText(Buffer.from(sample.text), ms);
          const report = await ingest(sample.name, bytes);
          if (report) {
            const lines = bytes.toString("utf8").split("\n").length;
            expect(report.records + report.skipped).toBeLessThanOrEqual(Math.max(lines, 1) * 200);
          }
        },
      ),
      300,
    );
  }, 240_000);

  it("never throw on arbitrary JSON lines or arbitrary bytes", async () => {
    await checkProperty(
      fc.asyncProperty(
        fc.oneof(
          fc
            .array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 8 })
            .map((vs) => Buffer.from(vs.map((v) => JSON.stringify(v)).join("\n"))),
          fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.from(a)),
          fc.string({ maxLength: 300 }).map((s) => Buffer.from(s)),
        ),
        async (bytes) => {
          await ingest("any.jsonl", bytes);
        },
      ),
      300,
    );
  });
});
