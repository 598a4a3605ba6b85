import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as verdicts } from "@/app/api/runs/[id]/verdicts/route";
import { POST as upload } from "@/app/api/runs/route";
import { gateResultSchema } from "@/lib/api/regression-schemas";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { idParams, uploadRequest, useTestApp } from "../helpers/test-app";

/**
 * Series on PostgreSQL: migration 007's columns, the series order and the per-request values a
 * bootstrap reads, through the other dialect. aiperf exports from test/generators/aiperf.mjs.
 */
describe.skipIf(!PG_URL)("series on PostgreSQL", () => {
  let cleanup: () => Promise<void>;
  let drop: () => Promise<void>;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "series-pg-"));

  beforeAll(async () => {
    const s = await freshSchema();
    drop = s.drop;
    ({ cleanup } = await useTestApp({ DATABASE_URL: s.url }));
  });
  afterAll(async () => {
    await cleanup?.();
    await drop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("judges the last run of a series against the one before, from per-request values", async () => {
    const ids: string[] = [];
    for (const [seed, scale] of [
      [1, 1],
      [2, 1.2],
    ]) {
      const out = path.join(dir, `r${seed}`);
      await generateAiperfRun(out, { records: 1000, seed, csv: false, ttftScale: scale });
      const files = ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
        name,
        path: path.join(out, name),
      }));
      const res = await upload(uploadRequest(files, { series: "pg/series", commit: `c${seed}` }));
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const res = await verdicts(
      new Request(`http://localhost/api/runs/${ids[1]}/verdicts?baseline=last&failOn=ttft.p50%3E5%25`),
      idParams(ids[1]),
    );
    const body = gateResultSchema.parse(await res.json());
    expect(body.exitCode).toBe(1);
    const ttft = body.judgement!.verdicts.find((v) => v.metric === "ttft.p50")!;
    expect(ttft.samples).toEqual({ run: 1000, baseline: 1000, unit: "requests" });
    expect(ttft.verdict).toBe("regressed");
    expect(body.judgement!.baseline.runIds).toEqual([ids[0]]);
  });
});
