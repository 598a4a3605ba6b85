/**
 * The aiperf records read by DuckDB against the line reader, its reference
 * (docs/architecture.md §The aiperf records read), every case on every store: every aiperf
 * fixture, the real aiperf runs of ../shared/fixtures/real-public and generated runs (5,000
 * single-turn records; 300 multi-turn conversations with inputs.json) are uploaded once read line
 * by line (RUNLENS_AIPERF_READ=lines) and once as a new upload reads them, whole and in parts of
 * 16 KB; the run summary, every chart payload, the verdict values, the files' reports and the
 * run's request file must be identical. Files the native read cannot reproduce (malformed and
 * blank lines, NaN, old tags, numbers as text…) must be read by the line reader, with its
 * warnings. `npm test` runs a subset of these (test/api/aiperf-native-read.test.ts); this is the
 * whole matrix (`npm run soak`).
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
} from "../helpers/aiperf-native-read";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";

const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-native-read-"));
afterAll(() => fs.rmSync(gen, { recursive: true, force: true }));

const CASES = nativeReadCases(gen, { records: 5_000, conversations: 300 });

describe.each(TEST_STORES)("aiperf records read natively, %s", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);
  beforeAll(() => {
    recordsReadLog.lastReason = null;
  });

  it.each(CASES)("$name: the same run as the line reader's", (c) => expectSameRun(env.app, c), 240_000);

  it.each(CASES.filter((c) => c.native > 0 && !c.name.startsWith("bad/")))(
    "$name in parts of 16 KB: the same run as the line reader's",
    (c) => expectSameRun(env.app, c, SMALL_PARTS),
    // Two uploads of a few thousand records each, the second in hundreds of parts.
    240_000,
  );
});

describe("a large clean file with one malformed and one NaN line", () => {
  const env = useStoreTestApp(undefined);
  itReadsBrokenRecords(() => env.app, path.join(gen, "broken"), 3_000, [1500, 2000]);
  itReadsBrokenRecords(() => env.app, path.join(gen, "broken-parts"), 3_000, [1500, 2000], SMALL_PARTS);
});
