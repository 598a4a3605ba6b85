import fs from "node:fs";
import Database from "better-sqlite3";

/**
 * Polls a SQLite store that another process is writing (WAL lets a second connection read) until
 * a run is still ingesting and already has request rows: the moment to kill that process.
 * Resolves with the run's id.
 */
export async function ingestingRunWithRows(dbFile: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(dbFile)) {
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        const run = db.prepare("select id from runs where status = 'ingesting'").get() as
          { id: string } | undefined;
        if (run) {
          const { n } = db
            .prepare("select count(*) as n from trtllm_requests where run_id = ?")
            .get(run.id) as { n: number };
          if (n > 0) return run.id;
        }
      } catch {
        // the schema is not there yet
      } finally {
        db.close();
      }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("no run got into its ingest in time");
}

/**
 * Polls a SQLite store another process is writing until a run has its summary committed and its
 * drill-down not yet (docs/http-api.md): the moment to kill that process. Resolves with its id.
 */
export async function runBetweenSummaryAndDrilldown(dbFile: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fs.existsSync(dbFile)) {
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        const run = db
          .prepare(
            `select id from runs where status = 'ready'
               and summary_ready_at is not null and drilldown_ready_at is null`,
          )
          .get() as { id: string } | undefined;
        if (run) return run.id;
      } catch {
        // the schema is not there yet
      } finally {
        db.close();
      }
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("no run got between its summary and its drill-down in time");
}
