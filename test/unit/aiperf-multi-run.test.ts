import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { analyze, generatedFiles } from "./aiperf-helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aiperf-multi-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("multi-run folder (profile_runs/run_NNNN)", () => {
  it("pools the trials into one run and checks each trial against its own summary", async () => {
    const a = await generateAiperfRun(path.join(dir, "run_0001"), { records: 300, seed: 1, csv: false });
    const b = await generateAiperfRun(path.join(dir, "run_0002"), { records: 200, seed: 2, csv: false });
    const files = [
      ...generatedFiles(a, "profile_runs/run_0001/", 0),
      ...generatedFiles(b, "profile_runs/run_0002/", 2),
    ];
    const { result, handle } = await analyze(files);
    expect(result.requests!.count).toBe(500);
    expect(result.info!.trials).toBe(2);
    expect(result.warnings!.filter((w) => w.includes("different folders"))).toEqual([]);
    expect(result.warnings!.filter((w) => w.startsWith("aiperf summary disagrees:"))).toEqual([]);
    const agreement = result.charts!["aiperf-agreement"] as { sources: string[]; disagreements: number };
    expect(agreement.sources).toHaveLength(2);
    expect(agreement.disagreements).toBe(0);
    expect(result.charts!["aiperf-trials"]).toEqual({
      trials: [
        { name: "profile_runs/run_0001", records: 300 },
        { name: "profile_runs/run_0002", records: 200 },
      ],
    });
    await handle.close();
  });
});

describe("sweep folders", () => {
  it("warns that pooling mixes settings when folders are not trials of one configuration", async () => {
    const a = await generateAiperfRun(path.join(dir, "c2"), {
      records: 50,
      seed: 3,
      concurrency: 2,
      csv: false,
    });
    const b = await generateAiperfRun(path.join(dir, "c8"), {
      records: 50,
      seed: 4,
      concurrency: 8,
      csv: false,
    });
    const { result, handle } = await analyze([
      ...generatedFiles(a, "concurrency_2/", 0),
      ...generatedFiles(b, "concurrency_8/", 2),
    ]);
    expect(
      result.warnings!.some((w) => w.includes("2 aiperf runs in different folders with different settings")),
    ).toBe(true);
    await handle.close();
  });
});
