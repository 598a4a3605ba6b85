import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agreementPayloadSchema, gpuPayloadSchema } from "@/lib/api/aiperf-charts";
import { EXAMPLE_RUNS, QWEN_SWEEP } from "@/lib/examples/examples";
import { readSweep } from "@/lib/runs/sweeps";
import { GPU_OUTSIDE_WINDOW } from "@/lib/metrics/aiperf-run-result";
import { getChartText } from "@/lib/store/chart-payloads";
import { seedExamples } from "@/lib/examples/seed-examples";
import { useTestApp } from "../helpers/test-app";

const EXAMPLES = path.resolve(__dirname, "../../lib/examples/files");

describe("example runs", () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it("every listed file ships in the examples folder, and every shipped file is listed", () => {
    const listed = EXAMPLE_RUNS.flatMap((e) => e.files.map((f) => path.join(e.dir, f))).sort();
    const shipped = fs.readdirSync(EXAMPLES, { recursive: true, encoding: "utf8" });
    expect(shipped.filter((f) => fs.statSync(path.join(EXAMPLES, f)).isFile()).sort()).toEqual(listed);
  });

  it("a fresh store seeds every example once, each ready, from the working directory", async () => {
    const t = await useTestApp({ RUNLENS_EXAMPLES: "on" });
    cleanup = t.cleanup;
    // The default folder is found from the checkout root, as the server runs there.
    expect(process.cwd()).toBe(path.resolve(EXAMPLES, "../../.."));
    expect(await seedExamples(t.app)).toBe(EXAMPLE_RUNS.length);
    const runs = await t.app.store.db.selectFrom("runs").select(["name", "status"]).execute();
    expect(runs.map((r) => r.name).sort()).toEqual(EXAMPLE_RUNS.map((e) => e.name).sort());
    expect(runs.every((r) => r.status === "ready")).toBe(true);
    const files = await t.app.store.db.selectFrom("files").select(["kind"]).execute();
    expect(files).toHaveLength(EXAMPLE_RUNS.reduce((n, e) => n + e.files.length, 0));
    expect(files.filter((f) => f.kind === "unknown")).toEqual([]);
    expect(await seedExamples(t.app)).toBe(0);
  });

  it("every example names a real model, as the runs list and header show it", async () => {
    const t = await useTestApp({ RUNLENS_EXAMPLES: "on" });
    cleanup = t.cleanup;
    await seedExamples(t.app);
    const runs = await t.app.store.db.selectFrom("runs").select(["name", "list_model"]).execute();
    // The 1P+3D example's scrape labelled its model "m", which the list and header printed as is.
    const oneP3D = runs.find((r) => r.name === EXAMPLE_RUNS.find((e) => e.dir.includes("1p3d"))!.name);
    expect(oneP3D?.list_model).toBe("meta-llama/Llama-3.1-8B-Instruct");
    for (const r of runs) if (r.list_model !== null) expect(r.list_model.length).toBeGreaterThan(3);
  });

  it("open without a disagreement with aiperf's summary or GPU telemetry outside the benchmark", async () => {
    const t = await useTestApp({ RUNLENS_EXAMPLES: "on" });
    cleanup = t.cleanup;
    await seedExamples(t.app);
    const runs = await t.app.store.db.selectFrom("runs").select(["id", "name", "summary"]).execute();
    // The sweep's real records hold 10 of the 64 requests each summary describes: a sample, said
    // as such in the agreement payload, not a disagreement.
    const sampled = new Set(EXAMPLE_RUNS.filter((e) => e.sweep).map((e) => e.name));
    for (const r of runs) {
      const warnings = (JSON.parse(r.summary!) as { warnings: string[] }).warnings;
      expect(warnings.filter((w) => w.startsWith("aiperf summary disagrees"))).toEqual([]);
      if (sampled.has(r.name)) {
        const agreement = JSON.parse((await getChartText(t.app.store.db, r.id, "aiperf-agreement"))!);
        expect(agreement).toMatchObject({ disagreements: 0, sample: { records: 10, described: 64 } });
      }
      // …and their GPU telemetry ends 1 s before the first request: it names the GPU, no more.
      if (sampled.has(r.name)) expect(warnings).toContain(GPU_OUTSIDE_WINDOW);
      else expect(warnings).not.toContain(GPU_OUTSIDE_WINDOW);
    }
  });

  it("the real aiperf example holds every request its summary describes", async () => {
    const t = await useTestApp({ RUNLENS_EXAMPLES: "on" });
    cleanup = t.cleanup;
    await seedExamples(t.app);
    const run = await t.app.store.db
      .selectFrom("runs")
      .select(["id", "summary"])
      .where("name", "=", EXAMPLE_RUNS.find((e) => e.dir === "aiperf-vllm-c4")!.name)
      .executeTakeFirstOrThrow();
    // The capture's INDEX.md: 200 requests, 2 of them HTTP 500 errors from the second server.
    const summary = JSON.parse(run.summary!) as { requests: { count: number; errorCount: number } };
    expect(summary.requests).toMatchObject({ count: 200, errorCount: 2 });
    const chart = async (key: string) =>
      JSON.parse((await getChartText(t.app.store.db, run.id, key))!) as unknown;
    expect(agreementPayloadSchema.parse(await chart("aiperf-agreement")).disagreements).toBe(0);
    const gpu = gpuPayloadSchema.parse(await chart("aiperf-gpu"));
    expect(gpu).toMatchObject({ distinctGpus: 2, duplicateGpus: 0, overlapsWindow: true });
  });

  it("groups the qwen runs into one sweep of three, ordered by concurrency", async () => {
    const t = await useTestApp({ RUNLENS_EXAMPLES: "on" });
    cleanup = t.cleanup;
    await seedExamples(t.app);
    const sweeps = await t.app.store.db.selectFrom("sweeps").select(["id", "name"]).execute();
    expect(sweeps.map((s) => s.name)).toEqual([QWEN_SWEEP]);
    const sweep = (await readSweep(t.app, sweeps[0].id))!;
    expect(sweep.runs.map((r) => [r.concurrency, r.source])).toEqual([
      [1, "summary"],
      [2, "summary"],
      [4, "summary"],
    ]);
  });

  it("no two examples share a byte-identical file", () => {
    const seen = new Map<string, string>();
    for (const e of EXAMPLE_RUNS)
      for (const f of e.files) {
        const hash = createHash("sha256")
          .update(fs.readFileSync(path.join(EXAMPLES, e.dir, f)))
          .digest("hex");
        expect(seen.get(hash), `${e.dir}/${f}`).toBeUndefined();
        seen.set(hash, `${e.dir}/${f}`);
      }
  });
});
