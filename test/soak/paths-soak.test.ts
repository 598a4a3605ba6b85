/**
 * Soak of the paths issue 31 built: uploads of a multi-benchmark file that is split into several
 * runs (SGLang lines as python/sglang/bench_serving.py appends them, test/generators/sglang-bench.ts,
 * with an unrelated aiperf records file beside it), folder sweeps (one aiperf run per
 * `cfg_cN/` folder, test/generators/aiperf.mjs), re-ingests of a run while clients read its
 * request list, timeline and trace, and trace exports in parallel, for a bounded time, with
 * `/api/health` asked every 20 ms throughout. Everything goes through the route handlers.
 *
 * What must hold: no 5xx on any route; health always 200 (its worst latency is printed, not
 * bounded here: the machine is shared); a read of a run being re-ingested answers 200 with the
 * run's full count or 409 `drilldown_building`, never a partial total, never 404; every upload's
 * runs are `ready`, each holding exactly its own requests, and each split or folder upload is one
 * sweep of all its runs (no orphan run); at the end no run is left `ingesting`.
 * Run with `npm run soak` (SQLite; PostgreSQL too when RUNLENS_TEST_DATABASE_URL is set).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as requestList } from "@/app/api/runs/[id]/aiperf/requests/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as timeline } from "@/app/api/runs/[id]/timeline/route";
import { GET as trace } from "@/app/api/runs/[id]/trace.json/route";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getSweep } from "@/app/api/sweeps/[id]/route";
import { runSummarySchema, uploadResponseSchema } from "@/lib/api/schemas";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { sglangSweep } from "../generators/sglang-bench";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { idParams, openTestApp, uploadRequest } from "../helpers/test-app";

const SOAK_MS = Number(process.env.RUNLENS_SOAK_MS ?? 60_000);
const WORKERS = Number(process.env.RUNLENS_SOAK_WORKERS ?? 4);

/** aiperf records files of known request counts, made once. */
const RECORD_SIZES = [400, 700, 1_000, 1_300];

interface Figures {
  splitUploads: number;
  folderUploads: number;
  runsMade: number;
  reingests: number;
  reads: number;
  readsDuringReingest: number;
  answered409: number;
  traces: number;
  healthCalls: number;
  healthMaxMs: number;
  healthP99Ms: number;
  statuses: Record<string, number>;
}

const url = (p: string) => new Request(`http://localhost${p}`);

describe.each([
  { store: "SQLite", skip: false },
  { store: "PostgreSQL", skip: !PG_URL },
])("soak of splits, folder sweeps, re-ingest under reads and trace exports ($store)", ({ store, skip }) => {
  it.skipIf(skip)(
    "keeps every run whole and every answer sound",
    async () => {
      const schema = store === "PostgreSQL" ? await freshSchema() : null;
      const t = await openTestApp(schema ? { DATABASE_URL: schema.url } : {});
      const gen = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-soak-paths-"));
      const records: Array<{ bytes: Buffer; count: number }> = [];
      for (const [i, n] of RECORD_SIZES.entries()) {
        const dir = path.join(gen, `r${i}`);
        await generateAiperfRun(dir, { records: n, seed: 10 + i, csv: false });
        records.push({ bytes: fs.readFileSync(path.join(dir, "profile_export.jsonl")), count: n });
      }

      /** Every run the soak made, with the profiling requests it must hold. */
      const expected = new Map<string, number>();
      /**
       * Runs of SGLang benchmarks: their details hold no request start times, so they have a
       * request list but no timeline or trace (404).
       */
      const untraced = new Set<string>();
      /** Runs no re-ingest is working on. */
      const idle = new Set<string>();
      const failures: string[] = [];
      const statuses: Record<string, number> = {};
      const figures = {
        splitUploads: 0,
        folderUploads: 0,
        runsMade: 0,
        reingests: 0,
        reads: 0,
        readsDuringReingest: 0,
        answered409: 0,
        traces: 0,
      };
      const healthMs: number[] = [];

      function seen(what: string, res: Response): void {
        const key = `${res.status}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (res.status >= 500) failures.push(`${what}: ${res.status}`);
      }

      async function checkSweep(sweepId: string, runIds: string[]): Promise<void> {
        const res = await getSweep(url(`/api/sweeps/${sweepId}`), idParams(sweepId));
        seen("sweep", res);
        const sweep = (await res.json()) as { runs: Array<{ id: string }> };
        const members = new Set(sweep.runs.map((r) => r.id));
        for (const id of runIds)
          if (!members.has(id)) failures.push(`run ${id} of an upload is not in its sweep`);
      }

      async function acceptUpload(
        what: string,
        res: Response,
        counts: number[],
        sweepOf: number,
      ): Promise<void> {
        seen(what, res);
        if (res.status !== 201) return void failures.push(`${what}: ${res.status} ${await res.text()}`);
        const body = uploadResponseSchema.parse(await res.json());
        const runs = body.runs ?? [{ id: body.id }];
        if (runs.length !== counts.length)
          failures.push(`${what}: ${runs.length} runs, not ${counts.length}`);
        if (!body.sweep) failures.push(`${what}: no sweep`);
        else
          await checkSweep(
            body.sweep.id,
            runs.slice(0, sweepOf).map((r) => r.id),
          );
        for (const [i, r] of runs.entries()) {
          expected.set(r.id, counts[i]);
          idle.add(r.id);
        }
        figures.runsMade += runs.length;
      }

      /** A multi-benchmark file plus an unrelated records file: one run per benchmark and one for the records. */
      async function splitUpload(): Promise<void> {
        const levels = [1, 2, 4, 8, 16].slice(0, 2 + Math.floor(Math.random() * 3));
        const perLevel = 20 + Math.floor(Math.random() * 40);
        const rec = records[Math.floor(Math.random() * records.length)];
        const res = await upload(
          uploadRequest([
            {
              name: "sweep.jsonl",
              content: sglangSweep(levels, { requests: perLevel, details: true, seed: 5 }),
            },
            { name: "other/profile_export.jsonl", content: rec.bytes },
          ]),
        );
        figures.splitUploads++;
        const runs =
          res.status === 201 ? ((await res.clone().json()) as { runs?: Array<{ id: string }> }).runs : [];
        for (const r of (runs ?? []).slice(0, levels.length)) untraced.add(r.id);
        await acceptUpload("split upload", res, [...levels.map(() => perLevel), rec.count], levels.length);
      }

      /** One run folder per concurrency, as aiperf's sweep layout writes them. */
      async function folderUpload(): Promise<void> {
        const folders = 2 + Math.floor(Math.random() * 3);
        const chosen = Array.from(
          { length: folders },
          (_, i) => records[(i + figures.folderUploads) % records.length],
        );
        const res = await upload(
          uploadRequest(
            chosen.map((r, i) => ({ name: `sweep/cfg_c${2 ** i}/profile_export.jsonl`, content: r.bytes })),
          ),
        );
        figures.folderUploads++;
        await acceptUpload(
          "folder upload",
          res,
          chosen.map((r) => r.count),
          folders,
        );
      }

      /** The run's request list, timeline and trace; `during` marks reads made while it is re-ingested. */
      async function readRun(id: string, during: boolean): Promise<void> {
        const want = expected.get(id)!;
        const answers = await Promise.all([
          requestList(url(`/api/runs/${id}/aiperf/requests?sort=start&order=asc&limit=50`), idParams(id)),
          timeline(url(`/api/runs/${id}/timeline`), idParams(id)),
          trace(url(`/api/runs/${id}/trace.json`), idParams(id)),
        ]);
        const [list, tl, tr] = answers;
        for (const [i, res] of answers.entries()) {
          const what = ["request list", "timeline", "trace"][i];
          seen(what, res);
          figures.reads++;
          if (during) figures.readsDuringReingest++;
          if (res.status === 409) {
            const code = ((await res.json()) as { error: { code: string } }).error.code;
            if (code !== "drilldown_building") failures.push(`${what} of ${id}: 409 ${code}`);
            else figures.answered409++;
            if (!during) failures.push(`${what} of ${id}: 409 with no re-ingest running`);
          } else if (res.status === 404 && i > 0 && untraced.has(id)) await res.arrayBuffer();
          else if (res.status !== 200)
            failures.push(
              `${what} of ${id}${during ? " during its re-ingest" : ""}: ${res.status} ${await res.text()}`,
            );
        }
        if (list.status === 200) {
          const total = ((await list.json()) as { total: number }).total;
          if (total !== want) failures.push(`request list of ${id}: total ${total}, not ${want}`);
        }
        if (tl.status === 200) await tl.arrayBuffer();
        if (tr.status === 200) {
          const doc = JSON.parse(await tr.text()) as { otherData: { requests: string } };
          figures.traces++;
          if (Number(doc.otherData.requests) !== want)
            failures.push(`trace of ${id}: ${doc.otherData.requests} requests, not ${want}`);
        }
      }

      /** Re-ingests one run while two clients keep reading it. */
      async function reingestUnderReads(): Promise<void> {
        const id = [...idle][Math.floor(Math.random() * idle.size)];
        if (!id) return splitUpload();
        idle.delete(id);
        let done = false;
        const readers = Array.from({ length: 2 }, async () => {
          // A client waits for the network between reads; in-process, a read answered from
          // promises alone would otherwise never let the re-ingest's I/O run.
          while (!done) {
            await readRun(id, true);
            await new Promise((r) => setTimeout(r, 10));
          }
        });
        const res = await reingest(url(`/api/runs/${id}/reingest`), idParams(id));
        done = true;
        await Promise.all(readers);
        seen("reingest", res);
        if (res.status !== 200) failures.push(`reingest of ${id}: ${res.status}`);
        else {
          const run = runSummarySchema.parse(await res.json());
          if (run.status !== "ready") failures.push(`reingest of ${id}: ${run.status}`);
          if (run.requests?.count !== expected.get(id))
            failures.push(`reingest of ${id}: ${run.requests?.count} requests, not ${expected.get(id)}`);
        }
        figures.reingests++;
        await readRun(id, false);
        idle.add(id);
      }

      /** Three trace exports of idle runs at once. */
      async function parallelTraces(): Promise<void> {
        const ids = [...idle]
          .filter((id) => !untraced.has(id))
          .sort(() => Math.random() - 0.5)
          .slice(0, 3);
        if (ids.length === 0) return folderUpload();
        await Promise.all(
          ids.map(async (id) => {
            const res = await trace(url(`/api/runs/${id}/trace.json`), idParams(id));
            seen("trace", res);
            // A run a concurrent re-ingest took after it was picked may answer 409.
            if (res.status === 409) return void (await res.arrayBuffer());
            if (res.status !== 200) return void failures.push(`trace of ${id}: ${res.status}`);
            const doc = JSON.parse(await res.text()) as { otherData: { requests: string } };
            figures.traces++;
            if (Number(doc.otherData.requests) !== expected.get(id))
              failures.push(`trace of ${id}: ${doc.otherData.requests} requests, not ${expected.get(id)}`);
          }),
        );
      }

      /** RUNLENS_SOAK_TRACE=<file>: each step's start and end, in ms from the start. */
      const log = (m: string) => {
        if (process.env.RUNLENS_SOAK_TRACE)
          fs.appendFileSync(process.env.RUNLENS_SOAK_TRACE, `${Date.now() - started} ${m}\n`);
      };
      async function step(): Promise<void> {
        const roll = Math.random();
        const kind = roll < 0.25 ? "split" : roll < 0.45 ? "folder" : roll < 0.75 ? "reingest" : "traces";
        log(`start ${kind}`);
        if (kind === "split") await splitUpload();
        else if (kind === "folder") await folderUpload();
        else if (kind === "reingest") await reingestUnderReads();
        else await parallelTraces();
        log(`end ${kind}`);
      }

      const started = Date.now();
      let stop = false;
      const poller = (async () => {
        while (!stop) {
          const t0 = performance.now();
          const res = await health(url("/api/health"));
          healthMs.push(performance.now() - t0);
          seen("health", res);
          if (res.status !== 200) failures.push(`health: ${res.status}`);
          await res.arrayBuffer();
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      try {
        await Promise.all(
          Array.from({ length: WORKERS }, async () => {
            while (Date.now() - started < SOAK_MS) await step();
          }),
        );
        stop = true;
        await poller;

        const db = t.app.store.db;
        const runs = await db.selectFrom("runs").select(["id", "status"]).execute();
        expect(runs.filter((r) => r.status !== "ready")).toEqual([]);
        // Every stored run is one the soak's uploads answered with: nothing half-stored beside them.
        expect(runs.map((r) => r.id).sort()).toEqual([...expected.keys()].sort());
        const inSweep = new Set(
          (await db.selectFrom("sweep_runs").select("run_id").execute()).map((r) => r.run_id),
        );
        for (const { id } of runs) {
          const summary = runSummarySchema.parse(
            await (await getRun(url(`/api/runs/${id}`), idParams(id))).json(),
          );
          if (summary.requests?.count !== expected.get(id))
            failures.push(`run ${id}: ${summary.requests?.count} requests, not ${expected.get(id)}`);
        }
        const sorted = [...healthMs].sort((a, b) => a - b);
        const out: Figures = {
          ...figures,
          healthCalls: healthMs.length,
          healthMaxMs: Math.round(sorted[sorted.length - 1] ?? 0),
          healthP99Ms: Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0),
          statuses,
        };
        console.log(
          `[soak ${store}] ${JSON.stringify(out)}, ${runs.length} runs (${inSweep.size} in sweeps), ` +
            `${Date.now() - started} ms, load average ${os
              .loadavg()
              .map((l) => l.toFixed(2))
              .join(" ")}`,
        );
        expect(failures.slice(0, 20)).toEqual([]);
        expect(figures.splitUploads).toBeGreaterThan(0);
        expect(figures.folderUploads).toBeGreaterThan(0);
        expect(figures.reingests).toBeGreaterThan(0);
        expect(figures.readsDuringReingest).toBeGreaterThan(0);
        expect(figures.traces).toBeGreaterThan(0);
      } finally {
        stop = true;
        await poller;
        await t.cleanup();
        await schema?.drop();
        fs.rmSync(gen, { recursive: true, force: true });
      }
    },
    600_000,
  );
});
