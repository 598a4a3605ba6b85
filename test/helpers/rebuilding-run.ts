/**
 * The drill-down routes of a run whose request rows are not its final ones (docs/http-api.md
 * §Summary ready, drill-down ready): while a re-ingest rewrites them, and after an interrupted
 * ingest left the run `failed`. Shared by the SQLite and PostgreSQL tests.
 */
import { storedAiperfRows } from "./aiperf-request-rows";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { GET as aiperfList } from "@/app/api/runs/[id]/aiperf/requests/route";
import { GET as timeline } from "@/app/api/runs/[id]/timeline/route";
import { GET as timelineRequest } from "@/app/api/runs/[id]/timeline/requests/[rid]/route";
import { GET as trace } from "@/app/api/runs/[id]/trace.json/route";
import { GET as goodput } from "@/app/api/runs/[id]/goodput/route";
import { GET as chart } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as trtllmSample } from "@/app/api/runs/[id]/trtllm/requests/route";
import { GET as trtllmDetail } from "@/app/api/runs/[id]/trtllm/requests/[idx]/route";
import type { AppContext } from "@/lib/server/app-context";
import { failInterruptedIngests } from "@/lib/store/interrupted-ingest";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { slowestCaseRecords } from "./aiperf-slowest-case";
import { gateIngests } from "./hold-ingests";
import { idParams, uploadRequest } from "./test-app";

const get = (p: string) => new Request(`http://localhost${p}`);

/** Every route that reads a run's request rows, with the status and code it answered. */
async function drilldownAnswers(id: string) {
  const answers = {
    "aiperf/requests": await aiperfList(get(`/api/runs/${id}/aiperf/requests?sort=ttft`), idParams(id)),
    "aiperf/requests?sort=start": await aiperfList(
      get(`/api/runs/${id}/aiperf/requests?sort=start&order=asc`),
      idParams(id),
    ),
    timeline: await timeline(get(`/api/runs/${id}/timeline`), idParams(id)),
    "timeline/requests/0": await timelineRequest(get(`/api/runs/${id}/timeline/requests/0`), {
      params: Promise.resolve({ id, rid: "0" }),
    }),
    "trace.json": await trace(get(`/api/runs/${id}/trace.json`), idParams(id)),
    goodput: await goodput(get(`/api/runs/${id}/goodput?slo=ttft:p99:200`), idParams(id)),
    "trtllm/requests": await trtllmSample(get(`/api/runs/${id}/trtllm/requests?sort=ttft`), idParams(id)),
    "trtllm/requests/0": await trtllmDetail(get(`/api/runs/${id}/trtllm/requests/0`), {
      params: Promise.resolve({ id, idx: "0" }),
    }),
  };
  const out: Record<string, string> = {};
  for (const [k, res] of Object.entries(answers)) {
    const body = res.headers.get("content-type")?.includes("json") ? await res.text() : "";
    let code = "";
    try {
      code = (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? "";
    } catch {
      // a streamed trace is read as text; its code stays empty
    }
    out[k] = `${res.status} ${code}`.trim();
  }
  return out;
}

const all = (answer: string) =>
  Object.fromEntries(
    [
      "aiperf/requests",
      "aiperf/requests?sort=start",
      "timeline",
      "timeline/requests/0",
      "trace.json",
      "goodput",
      "trtllm/requests",
      "trtllm/requests/0",
    ].map((k) => [k, answer]),
  );

async function uploaded(files: Array<{ name: string; path?: string; content?: string }>): Promise<string> {
  const res = await upload(uploadRequest(files));
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/**
 * A re-ingest of an aiperf run and of a TensorRT-LLM run in flight, held between its rows and
 * its commit: every drill-down route answers 409 `drilldown_building`, never the rows being
 * rewritten; once it commits, they answer 200 again.
 */
export async function expectRebuildingAnswers409(app: AppContext): Promise<void> {
  const aiperf = await uploaded([{ name: "profile_export.jsonl", content: slowestCaseRecords() }]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-rebuild-"));
  const gen = generateTrtllmRun({ dir, mode: "aggregated", requests: 30, seed: 7 });
  const trtllm = await uploaded(gen.files.map((p: string) => ({ name: path.basename(p), path: p })));
  const ready = await drilldownAnswers(aiperf);
  expect(ready["aiperf/requests"]).toBe("200");
  expect(ready.timeline).toBe("200");
  expect((await drilldownAnswers(trtllm))["trtllm/requests"]).toBe("200");

  for (const id of [aiperf, trtllm]) {
    // Held before its commit until the checks are done: the re-ingest has cleared the old rows
    // and written the new ones, and the run is still ingesting.
    const gate = gateIngests("beforeCommit");
    let work: Promise<Response>;
    try {
      work = reingest(new Request("http://localhost/x", { method: "POST" }), idParams(id));
      await gate.reached;
      const run = await app.store.db
        .selectFrom("runs")
        .select("status")
        .where("id", "=", id)
        .executeTakeFirst();
      expect(run?.status).toBe("ingesting");
      expect(await drilldownAnswers(id)).toEqual(all("409 drilldown_building"));
      // Its charts are cleared until the commit: being built, not absent.
      const key = id === aiperf ? "aiperf-slowest" : "trtllm-segments";
      const c = await chart(get(`/api/runs/${id}/charts/${key}`), { params: Promise.resolve({ id, key }) });
      expect(c.status).toBe(409);
    } finally {
      gate.release();
    }
    expect((await work).status).toBe(200);
  }
  const after = await drilldownAnswers(aiperf);
  expect(after["aiperf/requests"]).toBe("200");
  expect(after.timeline).toBe("200");
  expect(after["trace.json"]).toBe("200");
  expect((await drilldownAnswers(trtllm))["trtllm/requests/0"]).toBe("200");
  const key = "aiperf-slowest";
  expect(
    (await chart(get(`/api/runs/${aiperf}/charts/${key}`), { params: Promise.resolve({ id: aiperf, key }) }))
      .status,
  ).toBe(200);
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * A run whose drill-down was being built by a process that died: the sweeper fails it. Whatever
 * of its request rows is still stored (re-ingest replaces them), no route serves them.
 */
export async function expectFailedRunServesNoRows(app: AppContext): Promise<void> {
  const id = await uploaded([{ name: "profile_export.jsonl", content: slowestCaseRecords() }]);
  // The drill-down half was cut off: ready, summary stored, drilldown_ready_at null, beat stale.
  await app.store.db
    .updateTable("runs")
    .set({ drilldown_ready_at: null, updated_at: 1 })
    .where("id", "=", id)
    .execute();
  // Its request rows were stored (where depends on the store: a request file or rows).
  expect((await storedAiperfRows(app.store.db, id)).length).toBeGreaterThan(0);
  expect(await failInterruptedIngests(app.store.db, 1000)).toBe(1);
  expect(await drilldownAnswers(id)).toEqual(all("409 run_failed"));
}
