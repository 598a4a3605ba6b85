// The worker thread behind readSqliteBlob (lib/store/sqlite-blob-read.ts): one value read from
// the run database on a connection of its own, sent back as a transferred buffer (no copy on the
// main thread), then the thread ends.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
try {
  db.pragma(`busy_timeout = ${workerData.busyWaitMs}`);
  const row = db.prepare(workerData.sql).get(workerData.params);
  const value = row ? Object.values(row)[0] : undefined;
  if (value === undefined || value === null) parentPort.postMessage({ found: false });
  else {
    // A buffer of its own, so it can be handed over whole whatever better-sqlite3 allocated.
    const bytes = new Uint8Array(new ArrayBuffer(value.byteLength));
    bytes.set(value);
    parentPort.postMessage({ found: true, bytes }, [bytes.buffer]);
  }
} catch (err) {
  parentPort.postMessage({ error: { message: String(err && err.message), code: err && err.code } });
} finally {
  db.close();
}
