/**
 * The warm-up count when aiperf writes no warm-up records (docs/metrics.md §Requests): taken from
 * the summary's input_config, in both config shapes, and labelled with where it came from.
 * Config shapes follow aiperf's models: v1 `aiperf/common/config/loadgen_config.py`
 * (`loadgen.warmup_request_count`, `warmup_duration`), v2 `BenchmarkConfig.phases` (warm-up
 * phases have `exclude_from_results: true`; newer builds add `kind`), as in the real 0.10 summary.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readInputConfig } from "@/lib/formats/aiperf-input-config";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { analyze, diskFile, fixtureFile, generatedFiles } from "./aiperf-helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiperf-warmup-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("configured warm-up in both input_config shapes", () => {
  it("reads v1 loadgen: a request count, a duration, or nothing (no warm-up phase)", () => {
    expect(readInputConfig({ loadgen: { warmup_request_count: 16 } }).warmup).toEqual({
      requests: 16,
      durationS: null,
    });
    expect(readInputConfig({ loadgen: { warmup_duration: 30 } }).warmup).toEqual({
      requests: null,
      durationS: 30,
    });
    expect(readInputConfig({ loadgen: { concurrency: 4, request_count: 200 } }).warmup).toBeNull();
  });

  it("reads the v2 phase list of the real 0.10 summary, a name → phase map, and kind", () => {
    const real = JSON.parse(
      fs.readFileSync(
        path.resolve(__dirname, "../fixtures/aiperf/real-v0.10__profile_export_aiperf.json"),
        "utf8",
      ),
    );
    expect(readInputConfig(real.input_config).warmup).toEqual({ requests: 16, durationS: null });
    const map = {
      phases: {
        warmup: { type: "concurrency", exclude_from_results: true, requests: 8 },
        profiling: { type: "concurrency", requests: 100, concurrency: 4 },
      },
    };
    expect(readInputConfig(map)).toMatchObject({
      warmup: { requests: 8 },
      requestCount: 100,
      concurrency: 4,
      configVersion: 2,
    });
    const kinds = {
      phases: [
        { name: "prime", kind: "warmup", duration: 20 },
        { name: "measure", kind: "profiling", requests: 50 },
      ],
    };
    expect(readInputConfig(kinds)).toMatchObject({
      warmup: { requests: null, durationS: 20 },
      requestCount: 50,
    });
    expect(readInputConfig({ phases: [{ name: "profiling", requests: 10 }] }).warmup).toBeNull();
  });
});

describe("warm-up count of a run, and its source", () => {
  for (const config of ["v1", "v2", "v2-map"] as const) {
    it(`takes 7 from the ${config} config when aiperf wrote no warm-up records`, async () => {
      const gen = await generateAiperfRun(path.join(dir, `no-records-${config}`), {
        records: 120,
        warmup: 7,
        warmupRecords: false,
        config,
        csv: false,
      });
      const { result, handle } = await analyze(generatedFiles(gen));
      expect(result.requests).toMatchObject({ count: 120, warmupCount: 7, warmupSource: "config" });
      await handle.close();
    });
  }

  it("counts warm-up records when aiperf wrote them", async () => {
    const gen = await generateAiperfRun(path.join(dir, "records"), { records: 50, warmup: 5, csv: false });
    const { result, handle } = await analyze(generatedFiles(gen));
    expect(result.requests).toMatchObject({ count: 50, warmupCount: 5, warmupSource: "records" });
    await handle.close();
  });

  it("a warm-up bounded by time has an unknown count (null, not 0) and its duration", async () => {
    const gen = await generateAiperfRun(path.join(dir, "duration"), {
      records: 40,
      warmup: 6,
      warmupRecords: false,
      warmupDurationS: 30,
      csv: false,
    });
    const { result, handle } = await analyze(generatedFiles(gen));
    expect(result.requests).toMatchObject({
      warmupCount: null,
      warmupSource: "config",
      warmupDurationS: 30,
    });
    await handle.close();
  });

  it("the real 0.6 run configured no warm-up: 0, from its configuration", async () => {
    const { result, handle } = await analyze([
      fixtureFile("real-v0.6-c4/profile_export.jsonl", 0),
      fixtureFile("real-v0.6-c4/profile_export_aiperf.json", 1),
    ]);
    expect(result.requests).toMatchObject({
      count: 200,
      errorCount: 2,
      warmupCount: 0,
      warmupSource: "config",
    });
    await handle.close();
  });

  it("a summary alone: 16 from the real 0.10 config; a CSV alone (no config): unknown", async () => {
    const json = await analyze([fixtureFile("real-v0.10__profile_export_aiperf.json")]);
    expect(json.result.requests).toMatchObject({ warmupCount: 16, warmupSource: "config" });
    await json.handle.close();
    const csv = await analyze([
      diskFile(path.resolve(__dirname, "../fixtures/aiperf/real-v0.10__profile_export_aiperf.csv")),
    ]);
    expect(csv.result.requests!.warmupCount).toBeNull();
    expect(csv.result.requests!.warmupSource).toBeUndefined();
    await csv.handle.close();
  });
});
