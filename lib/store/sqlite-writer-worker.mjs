// The worker thread behind SqliteWriter (lib/store/sqlite-writer.ts): its own connection to the
// run database, on which it runs each batch of INSERT statements in one transaction, in the
// order the batches arrive, and answers with the batch id (and the error, if any).
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

const db = new Database(workerData.file, { fileMustExist: true });
// Off the main thread a long wait stops nothing else: the worker waits as long as a main-thread
// statement may (lib/store/sqlite-busy.ts), not SQLite's usual few seconds.
db.pragma(`busy_timeout = ${workerData.busyWaitMs}`);
db.pragma("synchronous = NORMAL");

const MAX_CACHED = 64;
const statements = new Map();

function prepared(text) {
  let stmt = statements.get(text);
  if (!stmt) {
    if (statements.size >= MAX_CACHED) statements.clear();
    stmt = db.prepare(text);
    statements.set(text, stmt);
  }
  return stmt;
}

const write = db.transaction((batch) => {
  for (const [text, params] of batch) prepared(text).run(params);
});

parentPort.on("message", (message) => {
  if (message.close) {
    db.close();
    parentPort.close();
    return;
  }
  try {
    write(message.batch);
    parentPort.postMessage({ id: message.id });
  } catch (err) {
    parentPort.postMessage({
      id: message.id,
      error: { message: String(err && err.message), code: err && err.code },
    });
  }
});
