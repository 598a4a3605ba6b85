/**
 * The aiperf records read by DuckDB against the line reader, its reference
 * (docs/architecture.md §The aiperf records read), on a subset that holds every kind of input
 * once and both stores: the run summary, every chart payload, the verdict values, the files'
 * reports and the run's request file of an upload read natively must be those of the same upload
 * read line by line (RUNLENS_AIPERF_READ=lines); files the native read cannot reproduce
 * (malformed lines, NaN, old tags, numbers as text…) must be read by the line reader, with its
 * warnings. The native read is not the default one: every case on every store, whole and in
 * parts, with the larger generated runs, is test/soak/aiperf-native-read.test.ts (`npm run soak`).
 *
 * On SQLite: every committed aiperf fixture but aiperf-real-c4 (on PostgreSQL here), a generated
 * single-turn run and a multi-turn one with inputs.json, the real aiperf runs of
 * ../shared/fixtures/real-public but the 0.8.0 one (in parts here) and every bad file. On
 * PostgreSQL: aiperf-real-c4, qwen-c1, the multi-turn run, one malformed and one byte-order-marked
 * file. In parts of 16 KB: the generated runs and the real 0.8.0 run on SQLite, qwen-c1 on
 * PostgreSQL; the malformed line in parts on SQLite.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { recordsReadLog } from "@/lib/ingest/analyzers/aiperf-native-ingest";
import {
  expectSameRun,
  itReadsBrokenRecords,
  nativeReadCases,
  SMALL_PARTS,
  type NativeReadCase,
} from "../helpers/aiperf-native-read";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";

const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-native-read-"));
afterAll(() => fs.rmSync(gen, { recursive: true, force: true }));

// 1,000 records are 37 parts of 16 KB; 60 conversations hold every turn count the generator makes.
const CASES = nativeReadCases(gen, { records: 1_000, conversations: 60 });
const GENERATED = (c: NativeReadCase) => c.name.startsWith("generated ");
const REAL_080 = "real-public aiperf-0.8.0-sglang-glm5.1-agentic-conc16";

/** The whole-file cases and the cases read in parts, by store. */
const SUBSET: Record<
  string,
  { whole: (c: NativeReadCase) => boolean; parts: (c: NativeReadCase) => boolean }
> = {
  SQLite: {
    whole: (c) => c.name !== "aiperf-real-c4" && c.name !== REAL_080,
    parts: (c) => GENERATED(c) || c.name === REAL_080,
  },
  PostgreSQL: {
    whole: (c) =>
      [
        "aiperf-real-c4",
        "qwen-c1",
        "generated multi-turn with inputs.json",
        "bad/every-other-line-broken.jsonl",
        "bad/bom.jsonl",
      ].includes(c.name),
    parts: (c) => c.name === "qwen-c1",
  },
};

describe.each(TEST_STORES)("aiperf records read natively, %s", (store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);
  beforeAll(() => {
    recordsReadLog.lastReason = null;
  });

  it.each(CASES.filter(SUBSET[store].whole))(
    "$name: the same run as the line reader's",
    (c) => expectSameRun(env.app, c),
    240_000,
  );

  it.each(CASES.filter(SUBSET[store].parts))(
    "$name in parts of 16 KB: the same run as the line reader's",
    (c) => expectSameRun(env.app, c, SMALL_PARTS),
    240_000,
  );
});

describe("a clean file with one malformed and one NaN line", () => {
  const env = useStoreTestApp(undefined);
  // 600 records, about 230 KB: the malformed line is in the 12th part of 16 KB.
  itReadsBrokenRecords(() => env.app, path.join(gen, "broken-parts"), 600, [300, 400], SMALL_PARTS);
});
