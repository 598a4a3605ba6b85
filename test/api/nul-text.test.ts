/**
 * U+0000 in names, labels, upload fields and record strings: PostgreSQL text cannot hold it, and
 * SQLite can. Both stores must answer alike, with the NUL kept as U+FFFD, and never fail.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { GET as getRun, PATCH as patchRun } from "@/app/api/runs/[id]/route";
import { GET as listRequests } from "@/app/api/runs/[id]/aiperf/requests/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { idParams, uploadRequest, useTestApp } from "../helpers/test-app";

const KEPT = "\uFFFD";

function aiperfRecords(ids: string[]): string {
  return ids
    .map((id, i) =>
      JSON.stringify({
        metadata: {
          x_request_id: id,
          request_start_ns: 1e18 + i * 1e9,
          request_end_ns: 1e18 + i * 1e9 + 5e8,
          benchmark_phase: "profiling",
        },
        metrics: {
          time_to_first_token: { value: 30, unit: "ms" },
          request_latency: { value: 500, unit: "ms" },
        },
      }),
    )
    .join("\n")
    .concat("\n");
}

const GOOD = aiperfRecords(["req-0", "req-1", "req-2", "req-3", "req-4"]);

const patch = (id: string, body: unknown) =>
  patchRun(
    new Request(`http://localhost/api/runs/${id}`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    idParams(id),
  );

async function runOf(id: string) {
  return (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
}

async function uploaded(
  files: Array<{ name: string; content: string }>,
  fields: Record<string, string> = {},
) {
  const res = await upload(uploadRequest(files, fields));
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body;
}

const stores: Array<[string, string | undefined]> = [["SQLite", undefined]];
if (PG_URL) stores.push(["PostgreSQL", PG_URL]);

describe.each(stores)("U+0000 on %s", (_store, pgUrl) => {
  let cleanup: (() => Promise<void>) | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const schema = pgUrl ? await freshSchema(pgUrl) : undefined;
    drop = schema?.drop;
    ({ cleanup } = await useTestApp({ DATABASE_URL: schema?.url }));
  });
  afterAll(async () => {
    await cleanup?.();
    await drop?.();
  });

  it("renames and relabels a run, keeping the NUL as U+FFFD", async () => {
    const { id } = await uploaded([{ name: "good.jsonl", content: GOOD }]);
    const named = await patch(id, { name: "a\u0000b" });
    expect(named.status).toBe(200);
    expect((await named.json()).name).toBe(`a${KEPT}b`);
    // Two labels that differ only by the NUL become one.
    const labelled = await patch(id, { labels: ["x\u0000y", `x${KEPT}y`, "plain"] });
    expect(labelled.status).toBe(200);
    expect((await labelled.json()).labels).toEqual([`x${KEPT}y`, "plain"]);
    expect(await runOf(id)).toMatchObject({ name: `a${KEPT}b`, labels: [`x${KEPT}y`, "plain"] });
    const list = await (
      await listRuns(new Request(`http://localhost/api/runs?label=${encodeURIComponent(`x${KEPT}y`)}`))
    ).json();
    expect(list.runs.map((r: { id: string }) => r.id)).toEqual([id]);
  });

  it("takes upload name and labels fields holding a NUL", async () => {
    const body = await uploaded([{ name: "good.jsonl", content: GOOD }], {
      name: "run\u0000name",
      labels: "a\u0000b,c",
    });
    expect(body.status).toBe("ready");
    expect(await runOf(body.id)).toMatchObject({ name: `run${KEPT}name`, labels: [`a${KEPT}b`, "c"] });
  });

  it("ingests an aiperf record whose request id holds a NUL, and re-ingests it", async () => {
    const body = await uploaded([{ name: "nul.jsonl", content: aiperfRecords(["req-\u0000-x"]) + GOOD }]);
    expect(body.status).toBe("ready");
    expect((await runOf(body.id)).requests.count).toBe(6);
    const res = await listRequests(
      new Request(`http://localhost/api/runs/${body.id}/aiperf/requests?sort=start&order=asc&limit=1`),
      idParams(body.id),
    );
    expect((await res.json()).rows[0].requestId).toBe(`req-${KEPT}-x`);
    const again = await reingest(new Request("http://localhost/x", { method: "POST" }), idParams(body.id));
    expect((await again.json()).status).toBe("ready");
  });

  it("ingests TensorRT-LLM and server-metrics records holding NULs", async () => {
    const trt = `${JSON.stringify({
      request_id: "a\u0000b",
      perf_metrics: {
        timing_metrics: {
          arrival_time: 1,
          first_scheduled_time: 1.01,
          first_token_time: 1.02,
          last_token_time: 1.05,
        },
      },
      status: "x\u0000",
    })}\n`;
    expect((await uploaded([{ name: "trt-nul.jsonl", content: trt }])).status).toBe("ready");
    const scrape = (t: number) =>
      JSON.stringify({
        endpoint_url: "http://h\u0000x/metrics",
        timestamp_ns: t,
        endpoint_latency_ns: 1,
        metrics: { "vllm:num_requests_running": [{ value: 1, labels: { m: "a\u0000" } }] },
      });
    const sm = `${scrape(1763591215220757503)}\n${scrape(1763591216220757503)}\n`;
    expect((await uploaded([{ name: "sm-nul.jsonl", content: sm }])).status).toBe("ready");
  });
});
