import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GET as verdicts } from "@/app/api/runs/[id]/verdicts/route";
import { PATCH } from "@/app/api/runs/[id]/route";
import { POST as upload } from "@/app/api/runs/route";
import { GET as seriesDetail } from "@/app/api/series/[...name]/route";
import { gateResultSchema, seriesDetailSchema } from "@/lib/api/regression-schemas";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";
import { idParams, uploadRequest } from "../helpers/test-app";

/**
 * Series on PostgreSQL: migration 007's columns, migration 011's order key, the series order and the per-request values a
 * bootstrap reads, through the other dialect. aiperf exports from test/generators/aiperf.mjs.
 */
describe.skipIf(!PG_URL)("series on PostgreSQL", () => {
  usePgTestApp();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "series-pg-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

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

  it("orders the series by the order key migration 011 stores, and by PATCH of it", async () => {
    const ids: string[] = [];
    for (const [seed, order] of [
      [3, "2026-12-03"],
      [4, "2026-12-01T23:00:00-02:00"],
      [5, "2026-12-02"],
    ] as const) {
      const out = path.join(dir, `o${seed}`);
      await generateAiperfRun(out, { records: 200, seed, csv: false });
      const files = ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
        name,
        path: path.join(out, name),
      }));
      const res = await upload(uploadRequest(files, { series: "pg/ordered", order }));
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const order = async () => {
      const res = await seriesDetail(new Request("http://localhost/api/series/pg/ordered"), {
        params: Promise.resolve({ name: ["pg", "ordered"] }),
      } as never);
      return seriesDetailSchema.parse(await res.json()).runs.map((r) => r.id);
    };
    // 2026-12-01T23:00-02:00 is 2026-12-02T01:00Z: after the bare 2026-12-02 (00:00 UTC).
    expect(await order()).toEqual([ids[2], ids[1], ids[0]]);
    const res = await PATCH(
      new Request(`http://localhost/api/runs/${ids[0]}`, {
        method: "PATCH",
        body: JSON.stringify({ order: "2026-11-30" }),
        headers: { "content-type": "application/json" },
      }),
      idParams(ids[0]),
    );
    expect((await res.json()).order).toBe("2026-11-30");
    expect(await order()).toEqual([ids[0], ids[2], ids[1]]);
  });
});
