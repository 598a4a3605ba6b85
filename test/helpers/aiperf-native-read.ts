/**
 * The aiperf records read by DuckDB against the line reader, its reference
 * (docs/architecture.md §The aiperf records read): the cases, the run as stored in canonical form
 * and the upload under either read. `test/api/aiperf-native-read.test.ts` runs a subset of the
 * cases (every kind of input once, both stores) in `npm test`; `test/soak/aiperf-native-read.test.ts`
 * runs every case on every store (`npm run soak`).
 */
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { nativeReadOptions, recordsReadLog } from "@/lib/ingest/analyzers/aiperf-native-ingest";
import { chartByKey } from "@/lib/api/chart-catalog";
import { getChartText } from "@/lib/store/chart-payloads";
import type { Db } from "@/lib/store/db";
import { aiperfRequestsSource } from "@/lib/store/columnar/aiperf-request-file";
import { queryRows } from "@/lib/store/columnar/engine";
import { chartKeys } from "@/lib/store/runs-repo";
import { requestValuesByRun } from "@/lib/store/series-repo";
// @ts-expect-error the bench's canonical JSON, plain ESM without type declarations
import { canonical, volatileIds } from "../bench/dump-canonical.mjs";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { readChart, readRun } from "./read-api";
import { realPublicDir, realPublicParts } from "./real-public";
import { fixture, uploadRun } from "./test-app";

export type Part = { name: string; path?: string; content?: string | Buffer };

/** One input: its parts, and how many of its records files the native read must take. */
export interface NativeReadCase {
  name: string;
  parts: () => Part[] | Promise<Part[]>;
  native: number;
}

const file = (rel: string, name = path.basename(rel)): Part => ({ name, path: fixture(rel) });
const dirParts = (dir: string): Part[] =>
  fs
    .readdirSync(dir)
    .sort()
    .map((n) => ({ name: n, path: path.join(dir, n) }));

/**
 * Every case: the aiperf fixtures, runs generated into `gen` (`records` single-turn records,
 * `conversations` multi-turn conversations with inputs.json), the real aiperf runs of
 * ../shared/fixtures/real-public (when present) and the bad files.
 */
export function nativeReadCases(
  gen: string,
  sizes: { records: number; conversations: number },
): NativeReadCase[] {
  return [
    {
      name: "qwen-c1",
      parts: () => [file("aiperf/qwen-c1__profile_export.jsonl", "profile_export.jsonl")],
      native: 1,
    },
    { name: "req-accounting", parts: () => dirParts(fixture("aiperf/req-accounting")), native: 1 },
    { name: "real-v0.6-c4", parts: () => dirParts(fixture("aiperf/real-v0.6-c4")), native: 1 },
    {
      name: "doc error record",
      parts: () => [file("aiperf/doc-error-record__profile_export.jsonl", "profile_export.jsonl")],
      native: 1,
    },
    { name: "aiperf-real-c4", parts: () => dirParts(fixture("aiperf-real-c4")), native: 1 },
    {
      name: `generated ${sizes.records.toLocaleString("en-US")} records`,
      parts: async () => {
        const dir = path.join(gen, "single");
        if (!fs.existsSync(dir))
          await generateAiperfRun(dir, { records: sizes.records, warmup: 50, errorEvery: 97, csv: false });
        return dirParts(dir);
      },
      native: 1,
    },
    {
      name: "generated multi-turn with inputs.json",
      parts: async () => {
        const dir = path.join(gen, "multi");
        if (!fs.existsSync(dir))
          await generateMultiTurnRun(dir, {
            conversations: sizes.conversations,
            inputs: "delta",
            errorEvery: 41,
            cancelEvery: 53,
            theoretical: true,
          });
        return dirParts(dir);
      },
      native: 1,
    },
    ...(
      [
        ["aiperf-0.8.0-sglang-glm5.1-agentic-conc16", 1],
        ["aiperf-0.3-qwen3-0.6b-plot-fixtures", 3],
        ["aiperf-0.2-inputs-json-canary", 0],
        ["aiperf-summary-gptoss20b-k8s-dcgm", 0],
      ] as const
    ).flatMap(([folder, native]) =>
      realPublicDir(folder)
        ? [{ name: `real-public ${folder}`, parts: () => realPublicParts(folder), native }]
        : [],
    ),
    // aiperf 0.1.x: old tags and one timestamp_ns a record, which only the line reader reads.
    ...(realPublicDir("aiperf-0.1.1-gptoss20b-cancellations")
      ? [
          {
            name: "real-public aiperf 0.1.1",
            parts: () => realPublicParts("aiperf-0.1.1-gptoss20b-cancellations"),
            native: 0,
          },
        ]
      : []),
    // Bad input: malformed, NaN, numbers as text, wrong types go to the line reader, which counts
    // and reports their lines; a byte-order mark (taken off before any reader) and CRLF do not.
    ...(
      [
        ["every-other-line-broken.jsonl", 0],
        ["truncated-last-line.jsonl", 0],
        ["nan-infinity.jsonl", 0],
        ["numbers-as-strings.jsonl", 0],
        ["wrong-types-aiperf.jsonl", 0],
        ["bom.jsonl", 1],
        ["crlf.jsonl", 1],
        ["duplicate-request-ids-aiperf.jsonl", 1],
        ["valid-aiperf.jsonl", 1],
      ] as const
    ).map(([n, native]) => ({
      name: `bad/${n}`,
      parts: () => [{ name: "profile_export.jsonl", path: fixture(`bad/files/${n}`) }],
      native,
    })),
  ];
}

/** Everything a run's numbers are stored as, canonical (ids by name, instants out). */
export async function dumpRun(app: { store: { db: Parameters<typeof chartKeys>[0] } }, id: string) {
  const summary = await readRun(id);
  const ids = volatileIds(summary, null);
  const keys = (await chartKeys(app.store.db, [id]))[id] ?? [];
  const charts: Record<string, unknown> = {};
  // A list the chart route does not serve (docs/http-api.md, chart_not_served) is compared as stored.
  for (const k of [...keys].sort())
    charts[k] =
      chartByKey(k)?.served === false
        ? JSON.parse((await getChartText(app.store.db as Db, id, k)) ?? "null")
        : await readChart(id, k);
  const values = await app.store.db
    .selectFrom("run_metric_values")
    .select(["metric", "count", "values"])
    .where("run_id", "=", id)
    .orderBy("metric")
    .execute();
  // The verdicts' values, wherever the run keeps them (a run with a request file: the file).
  const verdictValues: Record<string, string> = {};
  for (const f of ["ttft", "itl", "e2e"] as const) {
    const v = (await requestValuesByRun(app.store.db, [id], f))[0];
    verdictValues[f] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
  }
  const src = await aiperfRequestsSource(app.store.db, id);
  const rows = src ? await queryRows<Record<string, unknown>>(`select * from ${src}`) : [];
  const fileNames = new Map(summary.files.map((f) => [f.id, f.name]));
  return canonical(
    {
      summary,
      charts,
      values: values.map((v) => ({ ...v, values: Buffer.from(v.values).toString("base64") })),
      verdictValues,
      rows: rows.map((r) => ({ ...r, file_id: fileNames.get(r.file_id as string) ?? r.file_id })),
    },
    ids,
  );
}

/** Small parts: every file of more than a few records is read by DuckDB in several parts. */
export const SMALL_PARTS = 16 * 1024;

/** One upload read line by line or natively, the native read in parts of `partBytes` if given. */
export async function upload(parts: Part[], read: "lines" | "native", partBytes?: number): Promise<string> {
  const saved = process.env.RUNLENS_AIPERF_READ;
  const savedParts = nativeReadOptions.partBytes;
  process.env.RUNLENS_AIPERF_READ = read;
  if (partBytes !== undefined) nativeReadOptions.partBytes = partBytes;
  try {
    return await uploadRun(parts, { name: "same name" });
  } finally {
    nativeReadOptions.partBytes = savedParts;
    if (saved === undefined) delete process.env.RUNLENS_AIPERF_READ;
    else process.env.RUNLENS_AIPERF_READ = saved;
  }
}

/**
 * The case uploaded read line by line, then natively (in parts of `partBytes` if given): the
 * native read takes `native` records files, and the two runs are the same.
 */
export async function expectSameRun(
  app: Parameters<typeof dumpRun>[0],
  c: NativeReadCase,
  partBytes?: number,
): Promise<void> {
  const p = await c.parts();
  const lines = await upload(p, "lines");
  const before = recordsReadLog.native;
  const fast = await upload(p, "native", partBytes);
  expect(recordsReadLog.native - before, `records files read natively (${recordsReadLog.lastReason})`).toBe(
    c.native,
  );
  expect(await dumpRun(app, fast)).toEqual(await dumpRun(app, lines));
}

/**
 * `records` generated records with line `bad[0]` cut short (not JSON) and line `bad[1]`'s TTFT a
 * bare NaN.
 */
export async function brokenRecords(dir: string, records: number, bad: readonly [number, number]) {
  await generateAiperfRun(dir, { records, csv: false });
  const lines = fs.readFileSync(path.join(dir, "profile_export.jsonl"), "utf8").split("\n");
  lines[bad[0] - 1] = lines[bad[0] - 1].slice(0, 40);
  lines[bad[1] - 1] = lines[bad[1] - 1].replace(
    /"time_to_first_token":\{"value":[^,]+/,
    '"time_to_first_token":{"value":NaN',
  );
  return [{ name: "profile_export.jsonl", content: lines.join("\n") }];
}

/**
 * The broken file goes to the line reader, which reports the malformed line by number and reads
 * the rest as the line reader alone does; read in parts of `partBytes`, the parts before the bad
 * line are read natively and the line reader reads on with the same line numbers.
 */
export function itReadsBrokenRecords(
  app: () => Parameters<typeof dumpRun>[0],
  dir: string,
  records: number,
  bad: readonly [number, number],
  partBytes?: number,
): void {
  const title =
    partBytes === undefined
      ? "goes to the line reader, which reports both lines by number as before"
      : "in parts: the parts before the bad line are read natively, the line reader reads on with the same line numbers";
  it(
    title,
    async () => {
      const parts = await brokenRecords(dir, records, bad);
      const fromLines = await upload(parts, "lines");
      const before = recordsReadLog.lineReader;
      const id = await upload(parts, "native", partBytes);
      expect(recordsReadLog.lineReader - before).toBe(1);
      if (partBytes !== undefined) expect(recordsReadLog.lastReason).toMatch(/from line [1-9]/);
      const f = (await readRun(id)).files[0];
      expect(f.skipped).toBe(1);
      expect(f.warnings).toEqual([{ line: bad[0], message: "skipped line: not valid JSON" }]);
      expect(f.records).toBe(records - 1);
      expect(await dumpRun(app(), id)).toEqual(await dumpRun(app(), fromLines));
    },
    240_000,
  );
}
