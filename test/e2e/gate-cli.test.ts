/**
 * The CI gate end to end: `runlens upload --series … --baseline … --fail-on …` against a live
 * server, for a series whose new run is unchanged and for one whose new run has every TTFT 10%
 * slower, and for one whose new run ran another concurrency than its baseline (not comparable:
 * exit 2 until `--allow-different concurrency` accepts it). Runs are aiperf exports from test/generators/aiperf.mjs (aiperf's profile_export.jsonl
 * record layout), 2,000 requests each, TTFT uniform on [20, 120) ms.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { startApp, type RunningApp } from "./harness";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const CLI = path.join(ROOT, "bin/runlens.mjs");
const TOKEN = "gate-test-token";
const RULES = "ttft.p99>5%,throughput<-3%";

let app: RunningApp;
let dir: string;
beforeAll(async () => {
  app = await startApp({ env: { RUNLENS_API_TOKEN: TOKEN } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-gate-"));
}, 60_000);
afterAll(async () => {
  await app?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function artifacts(seed: number, ttftScale = 1, concurrency = 8): Promise<string> {
  const out = path.join(dir, `run-${seed}-${ttftScale}-c${concurrency}`);
  await generateAiperfRun(out, { records: 2000, seed, csv: false, ttftScale, concurrency });
  return out;
}

async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI, "upload", ...args, "--server", app.url, "--token", TOKEN],
      {
        env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" } as NodeJS.ProcessEnv,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Three unchanged runs in the series; returns their ids. */
async function seedSeries(series: string): Promise<string[]> {
  const ids = [];
  for (const seed of [1, 2, 3]) {
    const res = await cli([await artifacts(seed), "--series", series, "--commit", `c${seed}`]);
    expect(res.code, res.stderr).toBe(0);
    ids.push(res.stdout.trim().split("/").pop()!);
  }
  return ids;
}

describe("runlens upload as a CI gate", () => {
  it("passes an unchanged run with exit 0 and a Markdown table of verdicts", async () => {
    await seedSeries("nightly/steady");
    const res = await cli([
      await artifacts(4),
      "--series",
      "nightly/steady",
      "--commit",
      "c4",
      "--baseline",
      "last:3",
      "--fail-on",
      RULES,
    ]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^### Runlens: no regression\n/);
    expect(res.stdout).toMatch(
      /against the last 3 runs of nightly\/steady · \[compare\]\(http:\/\/[^)]+noise=last:3\)/,
    );
    expect(res.stdout).toContain("| Metric | Baseline | Run | Change | 95% interval | Verdict | Method |");
    expect(res.stdout).toMatch(
      /\| TTFT p99 \| [\d.,]+ ms \| [\d.,]+ ms \| [+-][\d.]+% \| .+ \| within noise \(±5%\) \| bootstrap, order statistics of resampled requests; n = 2,000 vs 6,000 requests, seed 1, 2,000 resamples \|/,
    );
    expect(res.stdout).toMatch(
      /\| Output token throughput \| .+ \| (within noise|improved) \(±3%\) \| median absolute deviation of 3 earlier runs/,
    );
    expect(res.stderr).toMatch(/^run: http:\/\/.+\/runs\/[A-Za-z0-9_-]{22}$/m);
  }, 120_000);

  it("fails a 10% TTFT regression with exit 1 and says which rule it broke", async () => {
    const seeded = await seedSeries("pr/1234");
    const res = await cli([
      await artifacts(5, 1.1),
      "--series",
      "pr/1234",
      "--baseline",
      "last:3",
      "--fail-on",
      RULES,
    ]);
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout).toMatch(/^### Runlens: regression\n/);
    expect(res.stdout).toMatch(/^- ttft\.p99 regressed \+\d+\.\d%, past ttft\.p99>5%$/m);
    expect(res.stdout).toMatch(
      /\| TTFT p99 \| .+ \| \+(9|10|11)\.\d% \| \+\d+\.\d% … \+\d+\.\d% \| \*\*regressed\*\* \(±5%\) \|/,
    );
    expect(res.stderr).toMatch(/runlens: ttft\.p99 regressed/);

    // Against one earlier unchanged run by its id (last:3 would now pool the regressed run in).
    const json = await cli([
      await artifacts(6, 1.1),
      "--series",
      "pr/1234",
      "--baseline",
      seeded[2],
      "--fail-on",
      RULES,
      "--format",
      "json",
    ]);
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout);
    expect(body.outcome).toBe("fail");
    expect(body.judgement.baseline.runIds).toEqual([seeded[2]]);
    expect(body.judgement.verdicts.find((v: { metric: string }) => v.metric === "ttft.p99").verdict).toBe(
      "regressed",
    );
  }, 120_000);

  it('exits 2 with "not comparable" against a baseline of another concurrency; --allow-different concurrency judges it', async () => {
    // docs/metrics.md §Comparable runs: the gate answers unjudged, exit 2, naming the differences
    // and the flag that accepts them; accepted, the run is judged (comparable with caveats).
    const seeded = await seedSeries("pr/conc");
    const refused = await cli([
      await artifacts(9, 1, 16),
      "--series",
      "pr/conc",
      "--baseline",
      "last",
      "--fail-on",
      RULES,
    ]);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stdout).toMatch(/^### Runlens: could not judge/);
    expect(refused.stderr).toMatch(/not comparable with .*concurrency/);
    expect(refused.stderr).toContain("runlens --allow-different concurrency");
    expect(refused.stdout).toContain("**Comparability: not comparable**");

    const accepted = await cli([
      await artifacts(10, 1, 16),
      "--series",
      "pr/conc",
      // The refused run stays in the series: judge against a concurrency-8 run by its id.
      "--baseline",
      seeded[2],
      "--fail-on",
      RULES,
      "--allow-different",
      "concurrency",
      "--format",
      "json",
    ]);
    const body = JSON.parse(accepted.stdout);
    expect(body.outcome, accepted.stderr).not.toBe("unjudged");
    expect(accepted.code).toBe(body.exitCode);
    expect([0, 1]).toContain(accepted.code);
    expect(body.judgement.comparability[0].verdict).toBe("comparable with caveats");
    expect(
      body.judgement.comparability[0].reasons.find((r: { name: string }) => r.name === "concurrency")
        .accepted,
    ).toBe(true);
  }, 180_000);

  it("exits 2 when it cannot judge: no earlier run, or the upload is refused", async () => {
    const first = await cli([await artifacts(7), "--series", "brand/new", "--baseline", "last"]);
    expect(first.code).toBe(2);
    expect(first.stdout).toMatch(/^### Runlens: could not judge/);
    expect(first.stderr).toMatch(/no baseline: series brand\/new has no run before this one/);

    const refused = await cli([await artifacts(8), "--series", "bad name", "--baseline", "last"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/runlens: upload failed \(400 bad_series\)/);
  }, 120_000);
});
