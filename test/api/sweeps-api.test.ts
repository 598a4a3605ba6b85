/**
 * /api/sweeps: grouping existing runs, renaming, removing a run, deleting (runs stay), write
 * auth, and aiperf's own sweep layout (concurrency_<N> folders plus sweep_aggregate/) in one
 * archive. Generated runs follow aiperf's exporters (test/generators/aiperf.mjs, aiperf-sweep.mjs).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { DELETE as deleteRunRoute, GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as listSweeps, POST as createSweep } from "@/app/api/sweeps/route";
import { DELETE as deleteSweep, GET as getSweep, PATCH as patchSweep } from "@/app/api/sweeps/[id]/route";
import { readAiperfSweep } from "@/lib/formats/aiperf-sweep";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
// @ts-expect-error plain ESM generator without type declarations
import { aiperfSweepExport } from "../generators/aiperf-sweep.mjs";
import { makeTarGz, type ArchiveEntry } from "../helpers/archives";
import { freshAppEachTest, idParams, uploadRequest, uploadRun } from "../helpers/test-app";

const t = freshAppEachTest();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sweeps-api-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  body: JSON.stringify(body),
  headers: { "content-type": "application/json", ...headers },
});
const sweepReq = (id: string, init?: RequestInit) => new Request(`http://localhost/api/sweeps/${id}`, init);

async function generated(concurrency: number, seed: number) {
  const gen = await generateAiperfRun(path.join(dir, `gen-${seed}`, `concurrency_${concurrency}`), {
    records: 40,
    seed,
    concurrency,
    csv: false,
    gpus: 2,
  });
  return { ...gen, concurrency };
}

describe("/api/sweeps", () => {
  it("groups runs, renames, removes a run and deletes the sweep but not its runs", async () => {
    const runs = [];
    for (const [i, c] of [1, 4].entries()) {
      const g = await generated(c, i + 10);
      runs.push(
        await uploadRun([
          { name: "profile_export.jsonl", path: g.jsonlPath },
          { name: "profile_export_aiperf.json", path: g.summaryPath },
        ]),
      );
    }
    const res = await createSweep(
      new Request("http://localhost/api/sweeps", json({ name: "tp2 fp8", runIds: runs })),
    );
    expect(res.status).toBe(201);
    const sweep = await res.json();
    expect(sweep.runs.map((r: { concurrency: number }) => r.concurrency)).toEqual([1, 4]);
    expect(sweep.runs[0].source).toBe("records");

    const list = await (await listSweeps(new Request("http://localhost/api/sweeps"))).json();
    expect(list.sweeps).toEqual([expect.objectContaining({ id: sweep.id, name: "tp2 fp8", runCount: 2 })]);

    const patched = await patchSweep(
      sweepReq(sweep.id, { ...json({ name: "renamed", removeRunIds: [runs[0]] }), method: "PATCH" }),
      idParams(sweep.id),
    );
    expect(patched.status).toBe(200);
    const after = await patched.json();
    expect(after.name).toBe("renamed");
    expect(after.runs.map((r: { id: string }) => r.id)).toEqual([runs[1]]);

    // Unknown runs are refused, not silently dropped.
    const bad = await patchSweep(
      sweepReq(sweep.id, { ...json({ addRunIds: ["AAAAAAAAAAAAAAAAAAAAAA"] }), method: "PATCH" }),
      idParams(sweep.id),
    );
    expect(bad.status).toBe(422);

    // Deleting a member run takes it out of the sweep.
    expect(
      (
        await deleteRunRoute(
          new Request(`http://localhost/api/runs/${runs[1]}`, { method: "DELETE" }),
          idParams(runs[1]),
        )
      ).status,
    ).toBe(204);
    expect((await (await getSweep(sweepReq(sweep.id), idParams(sweep.id))).json()).runs).toEqual([]);

    expect((await deleteSweep(sweepReq(sweep.id, { method: "DELETE" }), idParams(sweep.id))).status).toBe(
      204,
    );
    expect((await getSweep(sweepReq(sweep.id), idParams(sweep.id))).status).toBe(404);
    expect(
      (await getRun(new Request(`http://localhost/api/runs/${runs[0]}`), idParams(runs[0]))).status,
    ).toBe(200);
  });

  it("refuses writes without the token when one is set", async () => {
    await t.reopen({ RUNLENS_API_TOKEN: "s3cret" });
    const res = await createSweep(
      new Request("http://localhost/api/sweeps", json({ name: "x", runIds: ["AAAAAAAAAAAAAAAAAAAAAA"] })),
    );
    expect(res.status).toBe(401);
    const ok = await createSweep(
      new Request(
        "http://localhost/api/sweeps",
        json({ name: "x", runIds: ["AAAAAAAAAAAAAAAAAAAAAA"] }, { authorization: "Bearer s3cret" }),
      ),
    );
    expect(ok.status).toBe(422);
  });

  it("reads aiperf's sweep layout from one archive, with its sweep aggregate", async () => {
    const gens = [await generated(2, 21), await generated(8, 22)];
    const entries: ArchiveEntry[] = gens.flatMap((g) => [
      {
        name: `bench/concurrency_${g.concurrency}/profile_export.jsonl`,
        content: fs.readFileSync(g.jsonlPath),
      },
      {
        name: `bench/concurrency_${g.concurrency}/profile_export_aiperf.json`,
        content: fs.readFileSync(g.summaryPath),
      },
      {
        name: `bench/concurrency_${g.concurrency}/gpu_telemetry_export.jsonl`,
        content: fs.readFileSync(g.gpuPath),
      },
    ]);
    entries.push({
      name: "bench/sweep_aggregate/profile_export_aiperf_sweep.json",
      content: JSON.stringify(aiperfSweepExport(gens)),
    });
    const res = await upload(uploadRequest([{ name: "bench.tar.gz", content: await makeTarGz(entries) }]));
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.runs.map((r: { folder: string }) => r.folder)).toEqual(["concurrency_2", "concurrency_8"]);
    const sweep = await (await getSweep(sweepReq(body.sweep.id), idParams(body.sweep.id))).json();
    expect(sweep.name).toBe("bench");
    expect(sweep.aiperf.parameterName).toBe("concurrency");
    expect(sweep.aiperf.parameterValues).toEqual([2, 8]);
    expect(sweep.facts.gpuCount.value).toBe(2);
    const [c2] = sweep.runs;
    // Two GPUs: per-GPU output throughput is half of aiperf's output_token_throughput.
    expect(c2.points.mean.outputTokPerSPerGpu).toBeCloseTo(
      gens[0].summary.output_token_throughput.avg / 2,
      9,
    );
  });
});

describe("readAiperfSweep", () => {
  it("reads both shapes aiperf has written", async () => {
    const gens = [await generated(1, 31), await generated(4, 32)];
    for (const shape of ["values", "combinations"]) {
      const read = readAiperfSweep(JSON.stringify(aiperfSweepExport(gens, shape)))!;
      expect(read.parameterName).toBe("concurrency");
      expect(read.parameterValues).toEqual([1, 4]);
      expect(read.perValue["4"].request_throughput_avg.mean).toBe(gens[1].summary.request_throughput.avg);
      expect(read.paretoOptimal.length).toBeGreaterThan(0);
    }
    expect(readAiperfSweep("{}")).toBeNull();
    expect(readAiperfSweep("not json")).toBeNull();
  });
});
