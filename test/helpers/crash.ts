import fs from "node:fs";
import Database from "better-sqlite3";
import { waitUntil } from "./wait.mjs";

/**
 * Polls a SQLite store that another process is writing (WAL lets a second connection read) until
 * `probe` finds what it looks for (returns `{ found }`) or the time is up; the probe may say what
 * it saw meanwhile (`{ seen }`), and the timeout names `what` was awaited and the last thing seen,
 * and shows `output()` when given: what the process writing the store printed.
 */
export async function pollStore<T>(
  dbFile: string,
  timeoutMs: number,
  what: string,
  probe: (db: Database.Database) => { found: T } | { seen: string },
  output?: () => string,
): Promise<T> {
  let seen = "no database file yet";
  const found = await waitUntil(
    `${what} in ${dbFile}`,
    () => {
      if (!fs.existsSync(dbFile)) return undefined;
      const db = new Database(dbFile, { readonly: true, fileMustExist: true });
      try {
        const r = probe(db);
        if ("found" in r) return { value: r.found };
        seen = r.seen;
      } catch {
        seen = "database file there, schema not yet";
      } finally {
        db.close();
      }
      return undefined;
    },
    { timeoutMs, intervalMs: 25, seen: () => seen, output },
  );
  return found.value;
}

/**
 * Polls until a run is still ingesting and already has its request rows stored (its TensorRT-LLM
 * request file named, lib/store/columnar/trtllm-request-file.ts): the moment to kill that process. Resolves with the run's id; a timeout shows `output()` when given (what that process printed).
 */
export function ingestingRunWithRows(
  dbFile: string,
  timeoutMs: number,
  output?: () => string,
): Promise<string> {
  return pollStore<string>(
    dbFile,
    timeoutMs,
    "a run that is ingesting and has request rows",
    (db) => {
      const run = db.prepare("select id from runs where status = 'ingesting'").get() as
        { id: string } | undefined;
      if (!run) return { seen: "database open, no run ingesting yet" };
      const { n } = db
        .prepare(
          "select count(*) as n from run_column_files where run_id = ? and name = 'trtllm-request-rows'",
        )
        .get(run.id) as { n: number };
      return n > 0 ? { found: run.id } : { seen: `run ${run.id} ingesting, its request file not yet stored` };
    },
    output,
  );
}

/**
 * Polls until a run has its summary committed and its drill-down not yet (docs/http-api.md): the
 * moment to kill that process. Resolves with its id.
 */
export function runBetweenSummaryAndDrilldown(dbFile: string, timeoutMs: number): Promise<string> {
  return pollStore<string>(dbFile, timeoutMs, "a run between its summary and its drill-down", (db) => {
    const run = db
      .prepare(
        `select id from runs where status = 'ready'
           and summary_ready_at is not null and drilldown_ready_at is null`,
      )
      .get() as { id: string } | undefined;
    return run
      ? { found: run.id }
      : { seen: "database open, no run between its summary and its drill-down yet" };
  });
}
