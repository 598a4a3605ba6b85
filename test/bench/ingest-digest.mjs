#!/usr/bin/env node
// What an upload stored, as one digest per table: for checking that a change to the ingest path
// changes no stored number (docs/performance.md, "Where ingest spends its time"). Uploads the
// bench inputs (test/bench/inputs.mjs) to the built server on SQLite, then reads every row of
// the run from every table with a run_id (summary, chart payloads, request rows, blobs' rows…),
// with the run's and its files' ids and the clock's columns left out, and prints
// `<table> <rows> <sha256>`. Two builds agree when their lines are the same.
//
//   RUNLENS_DIST_DIR=.next-bench node test/bench/ingest-digest.mjs [--size default] [--kinds aiperf]
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { prepareInputs } from "./inputs.mjs";
import { readyTimes } from "./measure.mjs";
import { ensureBuild, startServer } from "./server.mjs";
import { streamUpload } from "./upload.mjs";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
};
const distDir = process.env.RUNLENS_DIST_DIR || ".next-bench";
const size = arg("size", "default");
const kinds = arg("kinds", "aiperf").split(",");
const port = Number(arg("port", "3108"));

/** Columns that differ between two uploads of the same bytes: ids, names and instants. */
const VARYING = /^(id|run_id|file_id|name|created_at|updated_at|ingested_at|heartbeat_at|.*_ready_at)$/;

/** A column's value as digested: blobs as base64, the summary without the instant it was stored at. */
function storedValue(table, columns, key, v) {
  if (Buffer.isBuffer(v)) return v.toString("base64");
  if (table === "runs" && columns[Number(key)] === "summary" && typeof v === "string") {
    const summary = JSON.parse(v);
    delete summary.ingestedAt;
    return JSON.stringify(summary);
  }
  return v;
}

function digestRun(file, runId) {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const fileIds = db
      .prepare("select id from files where run_id = ?")
      .all(runId)
      .map((r) => r.id);
    const anonymise = (text) => {
      let out = text.replaceAll(runId, "<run>");
      for (const id of fileIds) out = out.replaceAll(id, "<file>");
      return out;
    };
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' order by name")
      .all()
      .map((t) => t.name);
    const lines = [];
    for (const table of tables) {
      const columns = db.prepare(`pragma table_info("${table}")`).all();
      const key = table === "runs" ? "id" : "run_id";
      if (!columns.some((c) => c.name === key)) continue;
      const kept = columns.map((c) => c.name).filter((c) => !VARYING.test(c));
      const rows = db
        .prepare(`select ${kept.map((c) => `"${c}"`).join(",")} from "${table}" where "${key}" = ?`)
        .raw()
        .all(runId)
        .map((r) => anonymise(JSON.stringify(r, (k, v) => storedValue(table, kept, k, v))))
        .sort();
      const hash = crypto.createHash("sha256");
      for (const r of rows) hash.update(`${r}\n`);
      lines.push(`${table} ${rows.length} ${hash.digest("hex").slice(0, 16)}`);
    }
    return lines;
  } finally {
    db.close();
  }
}

async function main() {
  ensureBuild(distDir);
  const inputs = await prepareInputs(size, kinds);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-ingest-digest-"));
  const server = await startServer({ distDir, port, dataDir });
  try {
    for (const input of inputs) {
      const up = await streamUpload(server.url, input.files, { name: `digest ${input.kind}` });
      // The drill-down is committed after the upload answers: wait for it before reading.
      await readyTimes(server.url, up.body.id, up.startedAt);
      console.log(`# ${input.label} (${up.seconds.toFixed(1)} s)`);
      for (const line of digestRun(path.join(dataDir, "runlens.sqlite"), up.body.id)) console.log(line);
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
