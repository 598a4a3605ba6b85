/**
 * Run-fact cases shared by the SQLite and PostgreSQL suites: three real aiperf runs (qwen c1, c2,
 * c4), facts edited through PATCH, then the run list sorted and filtered by them.
 */
import { expect } from "vitest";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { PATCH as patchRun } from "@/app/api/runs/[id]/route";
import { runListSchema } from "@/lib/api/schemas";
import { fixture, idParams, uploadRequest } from "./test-app";

async function uploadQwen(c: number): Promise<string> {
  const d = `Qwen_Qwen3-0.6B-openai-chat-concurrency${c}`;
  const files = ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"];
  const res = await upload(
    uploadRequest(files.map((f) => ({ name: `${d}/${f}`, path: fixture(`aiperf/qwen-c${c}__${f}`) }))),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function patchFacts(id: string, facts: object): Promise<void> {
  const res = await patchRun(
    new Request(`http://localhost/api/runs/${id}`, {
      method: "PATCH",
      body: JSON.stringify({ facts }),
      headers: { "content-type": "application/json" },
    }),
    idParams(id),
  );
  expect(res.status).toBe(200);
}

async function list(qs: string) {
  const res = await listRuns(new Request(`http://localhost/api/runs?${qs}`));
  expect(res.status, qs).toBe(200);
  return runListSchema.parse(await res.json());
}

export async function sortAndFilterByFacts(): Promise<void> {
  const c1 = await uploadQwen(1);
  const c2 = await uploadQwen(2);
  const c4 = await uploadQwen(4);
  await patchFacts(c2, { gpuCount: 8, gpuModel: "NVIDIA H100 80GB HBM3", backend: "vllm" });
  await patchFacts(c4, { backend: "sglang" });

  const all = await list("");
  const item = all.runs.find((r) => r.id === c1)!;
  expect(item).toMatchObject({
    model: "Qwen/Qwen3-0.6B",
    gpuModel: "NVIDIA RTX 6000 Ada Generation",
    gpuCount: 1,
    concurrency: 1,
    backend: null,
  });

  const ids = (l: { runs: Array<{ id: string }> }) => l.runs.map((r) => r.id);
  expect(ids(await list("sort=concurrency"))).toEqual([c1, c2, c4]);
  expect(ids(await list("sort=concurrency&dir=desc"))).toEqual([c4, c2, c1]);
  expect(ids(await list("sort=gpuCount&dir=desc"))).toEqual([c2, c4, c1]);
  // Unknown values last in either direction: c1 has no backend.
  expect(ids(await list("sort=backend"))).toEqual([c4, c2, c1]);
  expect(ids(await list("sort=backend&dir=desc"))).toEqual([c2, c4, c1]);

  expect(ids(await list("gpu=h100"))).toEqual([c2]);
  expect(ids(await list("gpus=1&sort=concurrency"))).toEqual([c1, c4]);
  expect(ids(await list("concurrency=4"))).toEqual([c4]);
  expect(ids(await list("backend=SGL"))).toEqual([c4]);
  expect(ids(await list("model=qwen3&sort=concurrency&limit=2"))).toEqual([c1, c2]);
  const first = await list("sort=concurrency&limit=2");
  expect(ids(await list(`sort=concurrency&limit=2&cursor=${first.nextCursor}`))).toEqual([c4]);

  // Clearing an edit takes the run back to what its files said.
  await patchFacts(c2, { gpuCount: null });
  expect(ids(await list("gpus=1&sort=concurrency"))).toEqual([c1, c2, c4]);
  expect((await listRuns(new Request("http://localhost/api/runs?sort=colour"))).status).toBe(400);
}
