/**
 * The aiperf records read by DuckDB against the line reader, its reference
 * (docs/architecture.md §The aiperf records read): every aiperf fixture, the real aiperf runs of
 * ../shared/fixtures/real-public and generated runs (single- and multi-turn, with inputs.json)
 * are uploaded once read line by line (RUNLENS_AIPERF_READ=lines) and once as a new upload
 * reads them, on both stores; the run summary, every chart payload, the verdict values, the
 * files' reports and the run's request file must be identical. Files the native read cannot
 * reproduce (malformed and blank lines, NaN, old tags, numbers as text…) must be read by the
 * line reader, with its warnings.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { readChart, readRun } from "../helpers/read-api";
import { realPublicDir, realPublicParts } from "../helpers/real-public";
import { fixture, uploadRun } from "../helpers/test-app";

type Part = { name: string; path?: string; content?: string | Buffer };

const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-native-read-"));
afterAll(() => fs.rmSync(gen, { recursive: true, force: true }));

const file = (rel: string, name = path.basename(rel)): Part => ({ name, path: fixture(rel) });
const dirParts = (dir: string): Part[] =>
  fs
    .readdirSync(dir)
    .sort()
    .map((n) => ({ name: n, path: path.join(dir, n) }));

/** Each case: its parts, and how many of its records files the native read must take. */
const CASES: Array<{ name: string; parts: () => Part[] | Promise<Part[]>; native: number }> = [
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
    name: "generated 5,000 records",
    parts: async () => {
      const dir = path.join(gen, "single");
      if (!fs.existsSync(dir))
        await generateAiperfRun(dir, { records: 5000, warmup: 50, errorEvery: 97, csv: false });
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
          conversations: 300,
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
  // Bad input: each goes to the line reader, which counts and reports its lines.
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

/** Everything a run's numbers are stored as, canonical (ids by name, instants out). */
async function dumpRun(app: { store: { db: Parameters<typeof chartKeys>[0] } }, id: string) {
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
const SMALL_PARTS = 16 * 1024;

async function upload(parts: Part[], read: "lines" | "native", partBytes?: number): Promise<string> {
  const saved = process.env.RUNLENS_AIPERF_READ;
  const savedParts = nativeReadOptions.partBytes;
  if (read) process.env.RUNLENS_AIPERF_READ = read;
  else delete process.env.RUNLENS_AIPERF_READ;
  if (partBytes !== undefined) nativeReadOptions.partBytes = partBytes;
  try {
    return await uploadRun(parts, { name: "same name" });
  } finally {
    nativeReadOptions.partBytes = savedParts;
    if (saved === undefined) delete process.env.RUNLENS_AIPERF_READ;
    else process.env.RUNLENS_AIPERF_READ = saved;
  }
}

describe.each(TEST_STORES)("aiperf records read natively, %s", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);
  beforeAll(() => {
    recordsReadLog.lastReason = null;
  });

  it.each(CASES)(
    "$name: the same run as the line reader's",
    async ({ parts, native }) => {
      const p = await parts();
      const lines = await upload(p, "lines");
      const before = recordsReadLog.native;
      const fast = await upload(p, "native");
      const took = recordsReadLog.native - before;
      expect(took, `records files read natively (${recordsReadLog.lastReason})`).toBe(native);
      expect(await dumpRun(env.app, fast)).toEqual(await dumpRun(env.app, lines));
    },
    240_000,
  );

  it.each(CASES.filter((c) => c.native > 0 && !c.name.startsWith("bad/")))(
    "$name in parts of 16 KB: the same run as the line reader's",
    async ({ parts, native }) => {
      const p = await parts();
      const lines = await upload(p, "lines");
      const before = recordsReadLog.native;
      const fast = await upload(p, "native", SMALL_PARTS);
      expect(
        recordsReadLog.native - before,
        `records files read natively (${recordsReadLog.lastReason})`,
      ).toBe(native);
      expect(await dumpRun(env.app, fast)).toEqual(await dumpRun(env.app, lines));
    },
    // Two uploads of a few thousand records each, the second in hundreds of parts: 60 s is too
    // short on a loaded machine.
    240_000,
  );
});

/** 3,000 generated records with line 1500 cut short (not JSON) and line 2000's TTFT a bare NaN. */
async function brokenRecords(dir: string) {
  await generateAiperfRun(dir, { records: 3000, csv: false });
  const lines = fs.readFileSync(path.join(dir, "profile_export.jsonl"), "utf8").split("\n");
  lines[1499] = lines[1499].slice(0, 40);
  lines[1999] = lines[1999].replace(
    /"time_to_first_token":\{"value":[^,]+/,
    '"time_to_first_token":{"value":NaN',
  );
  return [{ name: "profile_export.jsonl", content: lines.join("\n") }];
}

describe("a large clean file with one malformed and one NaN line", () => {
  const env = useStoreTestApp(undefined);

  it("goes to the line reader, which reports both lines by number as before", async () => {
    const parts = await brokenRecords(path.join(gen, "broken"));
    const fromLines = await upload(parts, "lines");
    const before = recordsReadLog.lineReader;
    const id = await upload(parts, "native");
    expect(recordsReadLog.lineReader - before).toBe(1);
    const f = (await readRun(id)).files[0];
    expect(f.skipped).toBe(1);
    expect(f.warnings).toEqual([{ line: 1500, message: "skipped line: not valid JSON" }]);
    expect(f.records).toBe(2999);
    expect(await dumpRun(env.app, id)).toEqual(await dumpRun(env.app, fromLines));
  });

  it("in parts: the parts before the bad line are read natively, the line reader reads on with the same line numbers", async () => {
    const parts = await brokenRecords(path.join(gen, "broken-parts"));
    const fromLines = await upload(parts, "lines");
    const before = recordsReadLog.lineReader;
    const id = await upload(parts, "native", SMALL_PARTS);
    expect(recordsReadLog.lineReader - before).toBe(1);
    expect(recordsReadLog.lastReason).toMatch(/from line [1-9]/);
    const f = (await readRun(id)).files[0];
    expect(f.skipped).toBe(1);
    expect(f.warnings).toEqual([{ line: 1500, message: "skipped line: not valid JSON" }]);
    expect(f.records).toBe(2999);
    expect(await dumpRun(env.app, id)).toEqual(await dumpRun(env.app, fromLines));
  });
});
