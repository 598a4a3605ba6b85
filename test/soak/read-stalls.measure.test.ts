/**
 * Measurement, not a regression test (that is test/api/read-stalls.test.ts): the event loop's
 * longest stall during each read route of big runs, printed. Runs only with RUNLENS_MEASURE=1:
 *
 *   RUNLENS_MEASURE=1 RUNLENS_MEASURE_DIR=/tmp/big RUNLENS_MEASURE_KINDS=aiperf,router \
 *     npx vitest run --project soak test/soak/read-stalls.measure.test.ts
 *
 * RUNLENS_MEASURE_N sets the sizes (200,000); RUNLENS_MEASURE_DIR keeps the store and its runs
 * for the next measurement; RUNLENS_MEASURE_PG=1 measures PostgreSQL too. Each read prints its
 * longest stall in wall time and its longest slice of the main thread's CPU between two turns of
 * the loop: on a loaded machine the first is many times the second.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, it } from "vitest";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as requestList } from "@/app/api/runs/[id]/aiperf/requests/route";
import { GET as trtRequests } from "@/app/api/runs/[id]/trtllm/requests/route";
import { GET as trtRequest } from "@/app/api/runs/[id]/trtllm/requests/[idx]/route";
import { GET as timeline } from "@/app/api/runs/[id]/timeline/route";
import { GET as timelineReq } from "@/app/api/runs/[id]/timeline/requests/[rid]/route";
import { GET as trace } from "@/app/api/runs/[id]/trace.json/route";
import { GET as chart } from "@/app/api/runs/[id]/charts/[key]/route";
import { GET as report } from "@/app/api/runs/[id]/report.html/route";
import { GET as goodput } from "@/app/api/runs/[id]/goodput/route";
import { GET as sweepPoint } from "@/app/api/runs/[id]/sweep-point/route";
import { GET as verdicts } from "@/app/api/runs/[id]/verdicts/route";
import { POST as upload } from "@/app/api/runs/route";
import { chartKeys } from "@/lib/store/runs-repo";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { cpuSlices } from "../helpers/cpu-slices";
import { loopStalls } from "../helpers/loop-stalls";
import { openTestApp, uploadRequest } from "../helpers/test-app";

const N = Number(process.env.RUNLENS_MEASURE_N ?? 200_000);
const url = (p: string) => new Request(`http://localhost${p}`);
const p = (id: string) => ({ params: Promise.resolve({ id }) });

async function measure(label: string, fn: () => Promise<Response>) {
  const stalls = loopStalls({ wall: true });
  const slices = cpuSlices();
  const t0 = performance.now();
  const res = await fn();
  const body = await res.arrayBuffer();
  const ms = performance.now() - t0;
  const { slice } = slices.stop();
  const stall = stalls.stop();
  const note = res.status >= 400 ? Buffer.from(body).toString("utf8").slice(0, 60) : "";
  process.stdout.write(
    `${label.padEnd(52)} ${String(res.status).padEnd(4)} ${String(body.byteLength).padStart(9)} B ${ms.toFixed(0).padStart(6)} ms  stall ${stall.toFixed(0).padStart(5)} ms  cpu slice ${slice.toFixed(0).padStart(4)} ms ${note}\n`,
  );
}

function routerLogText(workers: number): string {
  const lines: string[] = [];
  const T0 = 1_760_000_000_000;
  for (let i = 0; i < workers; i++) {
    const t = new Date(T0 + i).toISOString().replace("Z", "000Z");
    lines.push(
      `${t} DEBUG dynamo_llm::kv_router::push_router: [ROUTING] Best: worker_${7_587_888_160_958_000_000n + BigInt(i)} dp_rank=0 with 1/4 blocks overlap`,
    );
  }
  return `${lines.join("\n")}\n`;
}

describe.skipIf(process.env.RUNLENS_MEASURE !== "1").each([{ store: "SQLite" }, { store: "PostgreSQL" }])(
  "read stalls ($store)",
  ({ store }) => {
    it.skipIf(store === "PostgreSQL" && (!PG_URL || process.env.RUNLENS_MEASURE_PG !== "1"))(
      "measures",
      async () => {
        const schema = store === "PostgreSQL" ? await freshSchema() : null;
        const keep = process.env.RUNLENS_MEASURE_DIR;
        const t = await openTestApp({
          ...(schema ? { DATABASE_URL: schema.url } : {}),
          ...(keep ? { DATA_DIR: keep } : {}),
        });
        const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-stalls-"));
        try {
          const kinds = (process.env.RUNLENS_MEASURE_KINDS ?? "aiperf,trtllm,router").split(",");
          const idsFile = keep && path.join(keep, "ids.json");
          const ids: Record<string, string> =
            idsFile && fs.existsSync(idsFile) ? JSON.parse(fs.readFileSync(idsFile, "utf8")) : {};
          if (kinds.includes("aiperf") && !ids.aiperf)
            await generateAiperfRun(path.join(gen, "a"), { records: N, seed: 3, csv: false });
          if (kinds.includes("trtllm") && !ids.trtllm)
            generateTrtllmRun({
              dir: path.join(gen, "t"),
              requests: N,
              seed: 4,
              ctxWorkers: 2,
              genWorkers: 2,
              stepsPerRequest: 2,
            });
          for (const [name, files] of [
            ["aiperf", [{ name: "profile_export.jsonl", path: path.join(gen, "a", "profile_export.jsonl") }]],
            [
              "trtllm",
              kinds.includes("trtllm") && !ids.trtllm
                ? fs.readdirSync(path.join(gen, "t")).map((f) => ({ name: f, path: path.join(gen, "t", f) }))
                : [],
            ],
            ["router", [{ name: "frontend.log", content: routerLogText(N) }]],
          ] as const) {
            if (!kinds.includes(name) || ids[name]) continue;
            const t0 = performance.now();
            const res = await upload(uploadRequest(files as never));
            const j = (await res.json()) as { id: string };
            console.log(`upload ${name}: ${res.status} ${(performance.now() - t0).toFixed(0)} ms`);
            ids[name] = j.id;
            for (let i = 0; i < 600; i++) {
              const run = (await (await getRun(url(`/api/runs/${j.id}`), p(j.id))).json()) as {
                status: string;
                drilldownReadyAt?: number | null;
                error?: string | null;
              };
              if (run.status !== "ingesting" && run.drilldownReadyAt !== null) {
                console.log(name, run.status, run.error ?? "");
                break;
              }
              await new Promise((r) => setTimeout(r, 1000));
            }
          }
          if (idsFile) fs.writeFileSync(idsFile, JSON.stringify(ids));
          const keys = await chartKeys(t.app.store.db, Object.values(ids));
          for (const [name, id] of Object.entries(ids)) {
            await measure(`${name} summary`, () => getRun(url(`/api/runs/${id}`), p(id)));
            for (const key of keys[id] ?? [])
              await measure(`${name} chart ${key}`, () =>
                chart(url(`/api/runs/${id}/charts/${key}`), { params: Promise.resolve({ id, key }) }),
              );
            await measure(`${name} timeline first`, () => timeline(url(`/api/runs/${id}/timeline`), p(id)));
            await measure(`${name} timeline window`, () =>
              timeline(url(`/api/runs/${id}/timeline?from=1000&to=60000`), p(id)),
            );
            await measure(`${name} timeline window lanes=worker limit=20000`, () =>
              timeline(url(`/api/runs/${id}/timeline?from=0&to=600000&lanes=worker&limit=20000`), p(id)),
            );
            await measure(`${name} timeline request 5`, () =>
              timelineReq(url(`/api/runs/${id}/timeline/requests/5`), {
                params: Promise.resolve({ id, rid: "5" }),
              }),
            );
            await measure(`${name} trace`, () => trace(url(`/api/runs/${id}/trace.json`), p(id)));
            await measure(`${name} report`, () => report(url(`/api/runs/${id}/report.html`), p(id)));
            await measure(`${name} goodput`, () =>
              goodput(url(`/api/runs/${id}/goodput?slo=ttft:p99:500,e2e:req:5000`), p(id)),
            );
            await measure(`${name} sweep-point`, () => sweepPoint(url(`/api/runs/${id}/sweep-point`), p(id)));
            await measure(`${name} verdicts`, () => verdicts(url(`/api/runs/${id}/verdicts`), p(id)));
            for (const sort of ["ttft", "e2e", "itl", "start"])
              for (const order of ["desc", "asc"])
                await measure(`${name} aiperf requests ${sort} ${order} 200`, () =>
                  requestList(
                    url(`/api/runs/${id}/aiperf/requests?sort=${sort}&order=${order}&limit=200`),
                    p(id),
                  ),
                );
            for (const sort of ["ttft", "e2e", "arrival"])
              await measure(`${name} trtllm requests ${sort} 2000`, () =>
                trtRequests(url(`/api/runs/${id}/trtllm/requests?sort=${sort}&limit=2000`), p(id)),
              );
            await measure(`${name} trtllm request 7`, () =>
              trtRequest(url(`/api/runs/${id}/trtllm/requests/7`), {
                params: Promise.resolve({ id, idx: "7" }),
              }),
            );
          }
          // Again, warm (caches filled).
          for (const [name, id] of Object.entries(ids)) {
            await measure(`${name} (2nd) trace`, () => trace(url(`/api/runs/${id}/trace.json`), p(id)));
            await measure(`${name} (2nd) timeline window`, () =>
              timeline(url(`/api/runs/${id}/timeline?from=2000&to=70000`), p(id)),
            );
          }
        } finally {
          fs.rmSync(gen, { recursive: true, force: true });
          if (keep) await (await import("@/lib/server/app-context")).resetAppContext();
          else await t.cleanup();
        }
      },
      3_600_000,
    );
  },
);
