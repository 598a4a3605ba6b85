import fs from "node:fs";
import Database from "better-sqlite3";

/**
 * Polls a SQLite store that another process is writing (WAL lets a second connection read) until
 * a run is still ingesting and already has request rows: the moment to kill that process.
 * Resolves with the run's id.
 */
export async function ingestingRunWithRows(dbFile: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let seen = "no database file yet";
  while (Date.now() < deadline) {
    if (fs.existsSync(dbFile)) {
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        const run = db.prepare("select id from runs where status = 'ingesting'").get() as
          { id: string } | undefined;
        seen = "database open, no run ingesting yet";
        if (run) {
          const { n } = db
            .prepare("select count(*) as n from trtllm_requests where run_id = ?")
            .get(run.id) as { n: number };
          seen = `run ${run.id} ingesting with ${n} request rows`;
          if (n > 0) return run.id;
        }
      } catch {
        seen = "database file there, schema not yet";
      } finally {
        db.close();
      }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(
    `waited ${timeoutMs} ms for a run that is ingesting and has request rows in ${dbFile}; last seen: ${seen}`,
  );
}

/**
 * Polls a SQLite store another process is writing until a run has its summary committed and its
 * drill-down not yet (docs/http-api.md): the moment to kill that process. Resolves with its id.
 */
export async function runBetweenSummaryAndDrilldown(dbFile: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let seen = "no database file yet";
  while (Date.now() < deadline) {
    if (fs.existsSync(dbFile)) {
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        seen = "database open, no run between its summary and its drill-down yet";
        const run = db
          .prepare(
            `select id from runs where status = 'ready'
               and summary_ready_at is not null and drilldown_ready_at is null`,
          )
          .get() as { id: string } | undefined;
        if (run) return run.id;
      } catch {
        seen = "database file there, schema not yet";
      } finally {
        db.close();
      }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(
    `waited ${timeoutMs} ms for a run between its summary and its drill-down in ${dbFile}; last seen: ${seen}`,
  );
}
