import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as listSweeps } from "@/app/api/sweeps/route";
import { DELETE as deleteSweep, GET as getSweep, PATCH as patchSweep } from "@/app/api/sweeps/[id]/route";
import { sglangSweep } from "../generators/sglang-bench";
import { makeTarGz } from "../helpers/archives";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";
import { fixture, idParams, uploadRequest } from "../helpers/test-app";

/** The sweep store on PostgreSQL: a sweep upload as one archive, regrouping and deleting. */
describe.skipIf(!PG_URL)("PostgreSQL sweeps", () => {
  usePgTestApp();

  it("uploads a folder of run folders as one archive, regroups and deletes the sweep, keeping its runs", async () => {
    const entries = [1, 2, 4].flatMap((c) =>
      ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"].map((f) => ({
        name: `qwen/qwen-c${c}/${f}`,
        content: fs.readFileSync(fixture(`aiperf/qwen-c${c}__${f}`)),
      })),
    );
    const res = await upload(uploadRequest([{ name: "qwen.tar.gz", content: await makeTarGz(entries) }]));
    expect(res.status).toBe(201);
    const { sweep, runs } = await res.json();
    const url = (id: string, init?: RequestInit) => new Request(`http://localhost/api/sweeps/${id}`, init);
    const read = await (await getSweep(url(sweep.id), idParams(sweep.id))).json();
    expect(read.runs.map((r: { concurrency: number }) => r.concurrency)).toEqual([1, 2, 4]);
    expect(
      (await (await listSweeps(new Request("http://localhost/api/sweeps"))).json()).sweeps[0].runCount,
    ).toBe(3);
    const patched = await patchSweep(
      url(sweep.id, {
        method: "PATCH",
        body: JSON.stringify({ removeRunIds: [runs[0].id] }),
        headers: { "content-type": "application/json" },
      }),
      idParams(sweep.id),
    );
    expect((await patched.json()).runs).toHaveLength(2);
    expect((await deleteSweep(url(sweep.id, { method: "DELETE" }), idParams(sweep.id))).status).toBe(204);
    for (const r of runs)
      expect((await getRun(new Request(`http://localhost/api/runs/${r.id}`), idParams(r.id))).status).toBe(
        200,
      );
  });
  it("splits an SGLang concurrency sweep's lines into one run each and their sweep", async () => {
    // Lines as python/sglang/bench_serving.py appends them (test/generators/sglang-bench.ts).
    const text = sglangSweep([1, 8], { requests: 16, details: true });
    const res = await upload(uploadRequest([{ name: "sweep.jsonl", content: text }]));
    expect(res.status).toBe(201);
    const { sweep, runs } = await res.json();
    expect(runs).toHaveLength(2);
    const read = await (
      await getSweep(new Request(`http://localhost/api/sweeps/${sweep.id}`), idParams(sweep.id))
    ).json();
    expect(read.runs.map((r: { concurrency: number }) => r.concurrency)).toEqual([1, 8]);
  });
});
