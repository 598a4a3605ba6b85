/**
 * A server killed (SIGKILL) in the middle of a PostgreSQL ingest, after COPYs of its request rows
 * have landed: the run is never shown as complete, the next process marks it failed, and
 * re-ingest completes it with each request stored once (the killed ingest's rows are replaced,
 * not added to). The ingest runs in a child process (jiti runs the TypeScript sources).
 * Skipped unless RUNLENS_TEST_DATABASE_URL is set.
 */
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHILD_WAIT_MS,
  CRASH_RECORDS,
  CRASH_TEST_MS,
  expectInterruptedRun,
  expectReingestReady,
  restartAfterCrash,
  spawnIngest,
  crashTestFolder,
  writeCrashInput,
} from "../helpers/crash-ingest";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { waitUntil } from "../helpers/wait.mjs";

/** Polls the schema the child writes until `sql` finds a run; resolves with its id. */
function pollRunId(client: pg.Client, what: string, sql: string, timeoutMs: number): Promise<string> {
  let seen = "nothing queried yet";
  return waitUntil(
    what,
    async () => {
      try {
        const id = (await client.query(sql)).rows[0]?.id as string | undefined;
        if (id === undefined) seen = await runStatuses(client);
        return id;
      } catch (err) {
        seen = `the query failed (schema not migrated yet?): ${(err as Error).message}`;
        return undefined;
      }
    },
    { timeoutMs, intervalMs: 25, seen: () => seen },
  );
}

/** The runs of the schema and their status, for a wait that timed out to say what it saw last. */
async function runStatuses(client: pg.Client): Promise<string> {
  const rows = (await client.query("select id, status from runs")).rows as Array<{
    id: string;
    status: string;
  }>;
  return rows.length === 0 ? "no run yet" : rows.map((r) => `run ${r.id} ${r.status}`).join(", ");
}

/** Polls until a run is ingesting with request rows already stored; resolves with its id. */
const ingestingRunWithRows = (client: pg.Client, timeoutMs: number) =>
  pollRunId(
    client,
    "a run ingesting with its request file stored",
    `select r.id from runs r where r.status = 'ingesting'
       and exists (select 1 from run_column_files c where c.run_id = r.id and c.name = 'trtllm-request-rows')`,
    timeoutMs,
  );

/** Polls until a run has its summary committed and its drill-down not yet; resolves with its id. */
const inDrilldownWindow = (client: pg.Client, timeoutMs: number) =>
  pollRunId(
    client,
    "a run between its summary and its drill-down",
    `select id from runs where status = 'ready'
       and summary_ready_at is not null and drilldown_ready_at is null`,
    timeoutMs,
  );

/**
 * Where the run's TensorRT-LLM requests are stored: catalog rows (none for a run stored since the
 * request file), its request files and the requests they hold.
 */
async function storedRequests(client: pg.Client, runId: string) {
  const rows = await client.query(
    `select (select count(*)::int from trtllm_requests where run_id = $1) as rows,
      (select count(*)::int from run_column_files where run_id = $1 and name = 'trtllm-request-rows') as files,
      (select sum(rows)::int from run_column_files where run_id = $1 and name = 'trtllm-request-rows') as requests`,
    [runId],
  );
  return rows.rows[0];
}

describe.skipIf(!PG_URL)("crash in the middle of a PostgreSQL ingest", () => {
  const folder = crashTestFolder("runlens-crash-pg-", (dir) => writeCrashInput(dir));
  let schema: Awaited<ReturnType<typeof freshSchema>>;

  beforeAll(async () => {
    schema = await freshSchema();
  });
  afterAll(async () => {
    await schema?.drop();
  });

  it(
    "leaves a failed run whose re-ingest stores each request once",
    async () => {
      const { dataDir } = folder;
      // Holds the commit back once the request file is stored: the kill lands mid-ingest on any machine.
      const ingest = spawnIngest(
        folder.input,
        { DATA_DIR: dataDir, DATABASE_URL: schema.url },
        { commitMs: 600_000 },
      );
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      try {
        const runId = await ingest.until(ingestingRunWithRows(client, CHILD_WAIT_MS));
        expect(await ingest.kill()).toBe("SIGKILL");
        expect(ingest.output()).not.toContain("finished");
        const before = await client.query("select status, summary from runs where id = $1", [runId]);
        expect(before.rows[0]).toEqual({ status: "ingesting", summary: null });

        const { cleanup } = await restartAfterCrash({ DATA_DIR: dataDir, DATABASE_URL: schema.url });
        try {
          await expectInterruptedRun(runId);
          const done = await expectReingestReady(runId);
          expect(done.files[0].records).toBe(CRASH_RECORDS);
          expect(await storedRequests(client, runId)).toEqual({ rows: 0, files: 1, requests: CRASH_RECORDS });
        } finally {
          await cleanup();
        }
      } finally {
        await client.end();
      }
    },
    CRASH_TEST_MS,
  );

  it(
    "fails a run killed between its summary and its drill-down, and re-ingest completes it",
    async () => {
      const records = 2000;
      const small = writeCrashInput(path.join(folder.dir, "small"), records);
      const windowSchema = await freshSchema();
      const ingest = spawnIngest(
        small,
        {
          DATA_DIR: path.join(folder.dir, "data-window"),
          DATABASE_URL: windowSchema.url,
          RUNLENS_DRILLDOWN: "background",
        },
        // Holds the drill-down back, so the kill lands after the summary is committed.
        { drilldownMs: 600_000 },
      );
      const client = new pg.Client({ connectionString: windowSchema.url });
      await client.connect();
      try {
        const runId = await ingest.until(inDrilldownWindow(client, CHILD_WAIT_MS));
        expect(await ingest.kill()).toBe("SIGKILL");
        const charts = async () =>
          (await client.query("select count(*)::int as n from chart_data where run_id = $1", [runId])).rows[0]
            .n;
        const before = await client.query(
          "select status, summary is not null as summary, drilldown_ready_at from runs where id = $1",
          [runId],
        );
        expect(before.rows[0]).toEqual({ status: "ready", summary: true, drilldown_ready_at: null });
        expect(await charts()).toBeGreaterThan(0);

        const { cleanup } = await restartAfterCrash({
          DATA_DIR: path.join(folder.dir, "data-window"),
          DATABASE_URL: windowSchema.url,
        });
        try {
          await expectInterruptedRun(runId);
          expect(await charts()).toBe(0);
          const done = await expectReingestReady(runId);
          expect(done.timeBreakdown.requestCount).toBe(records);
          expect(typeof done.drilldownReadyAt).toBe("string");
          expect(await storedRequests(client, runId)).toEqual({ rows: 0, files: 1, requests: records });
        } finally {
          await cleanup();
        }
      } finally {
        await client.end();
        await windowSchema.drop();
      }
    },
    CRASH_TEST_MS,
  );
});
