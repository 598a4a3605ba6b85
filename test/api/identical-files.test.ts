/**
 * The same file twice in one upload (loose and in a folder, or picked twice) is counted once,
 * whatever its family, with a warning on the copy: live through POST /api/runs and again on
 * re-ingest from the stored files.
 */
import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import type { AppContext } from "@/lib/server/app-context";
import { fixture, idParams, uploadRequest, useTestApp } from "../helpers/test-app";

const WARNING = "identical to another file of this run; not counted twice";

let cleanup: () => Promise<void>;
let app: AppContext;
beforeEach(async () => {
  ({ cleanup, app } = await useTestApp());
});
afterEach(async () => cleanup());

interface UploadedFile {
  name: string;
  kind: string;
  records: number;
  warnings: Array<{ message: string }>;
}

async function uploaded(files: Array<{ name: string; path: string }>) {
  const res = await upload(uploadRequest(files));
  const body = (await res.json()) as { id: string; status: string; files: UploadedFile[] };
  expect(res.status, JSON.stringify(body)).toBe(201);
  expect(body.status).toBe("ready");
  return body;
}

/** What the run says about its data, without what differs between two runs of the same data. */
async function contentOf(id: string) {
  const run = await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
  const rows = await app.store.db
    .selectFrom("chart_data")
    .select(["key", "data"])
    .where("run_id", "=", id)
    .orderBy("key")
    .execute();
  const charts = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.data)]));
  const rest = { ...run };
  for (const k of [
    "id",
    "name",
    "createdAt",
    "updatedAt",
    "ingestedAt",
    "summaryReadyAt",
    "drilldownReadyAt",
    "files",
    "url",
  ])
    delete rest[k];
  return { run: rest, charts };
}

const cases: Array<[string, string, string]> = [
  ["aiperf records", fixture("aiperf/qwen-c4__profile_export.jsonl"), "profile_export.jsonl"],
  ["server metrics", fixture("aiperf/doc-vllm__server_metrics_export.jsonl"), "server_metrics_export.jsonl"],
  ["GPU telemetry", fixture("aiperf/qwen-c4__gpu_telemetry_export.jsonl"), "gpu_telemetry_export.jsonl"],
];

describe.each(cases)("the same %s file twice in one upload", (_family, path, name) => {
  it("is counted once, with a warning on the copy, live and on re-ingest", async () => {
    expect(fs.existsSync(path)).toBe(true);
    const once = await uploaded([{ name: `a/${name}`, path }]);
    const twice = await uploaded([
      { name: `a/${name}`, path },
      { name: `b/${name}`, path },
    ]);
    expect(twice.files[0].records).toBe(once.files[0].records);
    expect(twice.files[0].records).toBeGreaterThan(0);
    expect(twice.files[1]).toMatchObject({ kind: once.files[0].kind, records: 0 });
    expect(twice.files[1].warnings.map((w) => w.message)).toEqual([WARNING]);
    const expected = await contentOf(once.id);
    expect(await contentOf(twice.id)).toEqual(expected);

    const res = await reingest(new Request("http://localhost/x", { method: "POST" }), idParams(twice.id));
    expect((await res.json()).status).toBe("ready");
    expect(await contentOf(twice.id)).toEqual(expected);
    const run = await (await getRun(new Request("http://localhost/x"), idParams(twice.id))).json();
    expect(run.files[1].warnings.map((w: { message: string }) => w.message)).toEqual([WARNING]);
  });
});
