#!/usr/bin/env node
// The upload path alone, in this process (no Next.js server, no build): the bench's inputs through
// `uploadRun` (what POST /api/runs calls) on SQLite and on PostgreSQL, with the wall time, this
// process's CPU time and, on PostgreSQL, the CPU time of the server backends that served it. For
// finding where ingest time goes and comparing the stores by measurement (docs/performance.md);
// `npm run bench` remains the measurement of record.
//
//   node test/bench/ingest-path.mjs [--size default] [--kinds aiperf,trtllm] [--store both] [--repeat 2]
//                                   [--server [--dist .next-bench]]
//
// --server: through the built server instead (test/bench/server.mjs, as `npm run bench` starts it),
// uploads only, with the server process's CPU time in place of this one's.
//
// PostgreSQL at RUNLENS_BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), on a fresh
// schema dropped afterwards.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createJiti } from "jiti";
import pg from "pg";
import { prepareInputs } from "./inputs.mjs";
import { dropPgSchema, freshPgSchema } from "./pg.mjs";
import { ensureBuild, ROOT, startServer } from "./server.mjs";
import { streamUpload } from "./upload.mjs";

function arg(name, dflt) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
}

const size = arg("size", "default");
const kinds = arg("kinds", "aiperf,trtllm").split(",");
const storeArg = arg("store", "both");
const stores = storeArg === "both" ? ["sqlite", "postgres"] : [storeArg];
const repeat = Math.max(1, Number(arg("repeat", "2")) || 2);
const pgUrl = process.env.RUNLENS_BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/test";
const viaServer = process.argv.includes("--server");
const distDir = arg("dist", process.env.RUNLENS_DIST_DIR || ".next-bench");

const jiti = createJiti(import.meta.url, { alias: { "@/": `${ROOT}/` } });

/** A multipart body streamed from the files on disk, as test/bench/upload.mjs sends it. */
function multipartRequest(files, name) {
  const boundary = `----runlens-ingest-path-${Date.now().toString(16)}`;
  async function* body() {
    yield Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="name"\r\n\r\n${name}\r\n`);
    for (const f of files) {
      yield Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${path.basename(f)}"\r\n` +
          `content-type: application/octet-stream\r\n\r\n`,
      );
      for await (const chunk of fs.createReadStream(f, { highWaterMark: 1 << 20 })) yield chunk;
      yield Buffer.from("\r\n");
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return new Request("http://localhost/api/runs", {
    method: "POST",
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    body: Readable.toWeb(Readable.from(body())),
    duplex: "half",
  });
}

/** User + system CPU seconds of a process from /proc (clock ticks of 1/100 s). */
function procCpuSeconds(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const rest = f.slice(f.lastIndexOf(")") + 2).split(" ");
    return (Number(rest[11]) + Number(rest[12])) / 100;
  } catch {
    return 0;
  }
}

/** The stores' rows through the built server: upload time, server CPU, PostgreSQL backend CPU. */
async function serverRows(inputs) {
  ensureBuild(distDir);
  const rows = [];
  const servers = [];
  const appName = `runlens-ingest-path-${process.pid}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  try {
    for (const [i, store] of stores.entries()) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `runlens-ingest-path-${store}-`));
      const schema = store === "postgres" ? await freshPgSchema(pgUrl) : null;
      const databaseUrl = schema
        ? `${pgUrl}${pgUrl.includes("?") ? "&" : "?"}application_name=${appName}` +
          `&options=${encodeURIComponent(`-c search_path=${schema}`)}`
        : null;
      const port = 3190 + ((process.pid + i) % 50);
      servers.push({
        store,
        dataDir,
        schema,
        server: await startServer({ distDir, port, dataDir, databaseUrl }),
      });
    }
    if (stores.includes("postgres")) await admin.connect();
    const seen = new Map();
    const backendCpu = async () => {
      const r = await admin.query("select pid from pg_stat_activity where application_name = $1", [appName]);
      for (const { pid } of r.rows) seen.set(pid, procCpuSeconds(pid));
      return [...seen.values()].reduce((a, b) => a + b, 0);
    };
    // Stores take turns, upload by upload: a shared machine's load then weighs on both alike.
    for (const input of inputs)
      for (let i = 0; i < repeat; i++)
        for (const { store, server } of servers) {
          const cpu0 = procCpuSeconds(server.pid);
          const pg0 = store === "postgres" ? await backendCpu() : 0;
          const up = await streamUpload(server.url, input.files, { name: `ingest-path ${input.kind}` });
          const row = {
            store,
            kind: input.kind,
            round: i + 1,
            seconds: up.seconds,
            nodeCpuSeconds: procCpuSeconds(server.pid) - cpu0,
            pgCpuSeconds: store === "postgres" ? (await backendCpu()) - pg0 : null,
            status: up.body.status,
            loadAverage: os.loadavg()[0],
          };
          rows.push(row);
          report(row);
        }
  } finally {
    await admin.end().catch(() => {});
    for (const { server, schema, dataDir } of servers) {
      await server.stop();
      if (schema) await dropPgSchema(pgUrl, schema).catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return rows;
}

function report(row) {
  process.stderr.write(
    `[${row.store}] ${row.kind} #${row.round}: ${row.seconds.toFixed(2)} s wall, ${row.nodeCpuSeconds.toFixed(2)} s node CPU` +
      (row.pgCpuSeconds === null ? "" : `, ${row.pgCpuSeconds.toFixed(2)} s PostgreSQL CPU`) +
      ` (${row.status}${row.loadAverage === undefined ? "" : `, load ${row.loadAverage.toFixed(1)}`})\n`,
  );
}

async function main() {
  const inputs = await prepareInputs(size, kinds);
  const rows = viaServer ? await serverRows(inputs) : await inProcessRows(inputs);
  printRows(rows);
}

async function inProcessRows(inputs) {
  const { createAppContext, resetAppContext } = await jiti.import("@/lib/server/app-context");
  const { readConfig } = await jiti.import("@/lib/server/config");
  const { uploadRun } = await jiti.import("@/lib/ingest/upload-run");
  const { sql } = await import("kysely");
  const rows = [];
  for (const store of stores) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `runlens-ingest-path-${store}-`));
    const schema = store === "postgres" ? await freshPgSchema(pgUrl) : null;
    const env = { DATA_DIR: dataDir, RUNLENS_EXAMPLES: "off", RUNLENS_MAX_UPLOAD_BYTES: String(8 * 2 ** 30) };
    // The application name finds this process's backends in pg_stat_activity.
    const appName = `runlens-ingest-path-${process.pid}`;
    if (schema)
      env.DATABASE_URL =
        `${pgUrl}${pgUrl.includes("?") ? "&" : "?"}application_name=${appName}` +
        `&options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const app = await createAppContext(readConfig(env));
    // CPU of the backends serving this process, by pid; a backend that exits keeps its last reading.
    const seen = new Map();
    const backendCpu = async () => {
      if (store !== "postgres") return 0;
      const r = await sql`select pid from pg_stat_activity where application_name = ${appName}`.execute(
        app.store.db,
      );
      for (const { pid } of r.rows) seen.set(pid, procCpuSeconds(pid));
      return [...seen.values()].reduce((a, b) => a + b, 0);
    };
    try {
      for (const input of inputs)
        for (let i = 0; i < repeat; i++) {
          const cpu0 = process.cpuUsage();
          const pg0 = await backendCpu();
          const t0 = process.hrtime.bigint();
          const created = await uploadRun(app, multipartRequest(input.files, `ingest-path ${input.kind}`));
          const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
          const cpu = process.cpuUsage(cpu0);
          const row = {
            store,
            kind: input.kind,
            round: i + 1,
            seconds,
            nodeCpuSeconds: (cpu.user + cpu.system) / 1e6,
            // A backend opened and closed within the upload is missed; the pool keeps idle ones 10 s.
            pgCpuSeconds: store === "postgres" ? (await backendCpu()) - pg0 : null,
            status: created.status,
          };
          rows.push(row);
          if (globalThis.__copyProf) {
            console.error(JSON.stringify(globalThis.__copyProf));
            globalThis.__copyProf = undefined;
          }
          process.stderr.write(
            `[${store}] ${input.kind} #${row.round}: ${seconds.toFixed(2)} s wall, ${row.nodeCpuSeconds.toFixed(2)} s node CPU` +
              (row.pgCpuSeconds === null ? "" : `, ${row.pgCpuSeconds.toFixed(2)} s PostgreSQL CPU`) +
              ` (${row.status}${row.loadAverage === undefined ? "" : `, load ${row.loadAverage.toFixed(1)}`})\n`,
          );
        }
    } finally {
      app.stop();
      // Closing a SQLite store waits for its writer thread's exit, which an idle (unreferenced)
      // worker never reports here: the timer keeps this process alive meanwhile.
      await Promise.race([app.store.close(), new Promise((r) => setTimeout(r, 2000))]);
      await resetAppContext().catch(() => {});
      if (schema) await dropPgSchema(pgUrl, schema).catch(() => {});
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return rows;
}

function printRows(rows) {
  console.log("\nstore     kind      median s  node CPU s  PG CPU s");
  for (const store of stores)
    for (const kind of kinds) {
      const mine = rows.filter((r) => r.store === store && r.kind === kind);
      if (mine.length === 0) continue;
      const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
      const pgCpu = mine[0].pgCpuSeconds === null ? "–" : med(mine.map((r) => r.pgCpuSeconds)).toFixed(2);
      console.log(
        `${store.padEnd(9)} ${kind.padEnd(9)} ${med(mine.map((r) => r.seconds))
          .toFixed(2)
          .padStart(8)}  ` +
          `${med(mine.map((r) => r.nodeCpuSeconds))
            .toFixed(2)
            .padStart(10)}  ${pgCpu.padStart(8)}`,
      );
    }
  for (const kind of kinds) {
    const med = (store) => {
      const xs = rows.filter((r) => r.store === store && r.kind === kind).map((r) => r.seconds);
      return xs.length ? [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] : null;
    };
    const a = med("sqlite");
    const b = med("postgres");
    if (a && b) console.log(`${kind}: PostgreSQL / SQLite = ${(b / a).toFixed(2)}×`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
