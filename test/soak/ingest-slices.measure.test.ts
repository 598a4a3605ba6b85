/**
 * Measurement (RUNLENS_MEASURE=1): every slice of main-thread CPU over RUNLENS_MEASURE_SLICE_MS
 * (default 30) between two turns of the event loop while an upload is received, ingested and
 * committed through the upload route, with what ran in it (a CPU profile's samples inside the
 * slice, by project function) and the garbage collections inside it. Inputs: a generated
 * TensorRT-LLM disaggregated run (RUNLENS_MEASURE_TRTLLM requests, default 20,000) and a generated
 * aiperf run (RUNLENS_MEASURE_N records, default 200,000); RUNLENS_MEASURE_KINDS picks them
 * (default "trtllm,aiperf"; "trtllm-array" and "trtllm-doc" the same TensorRT-LLM records as a
 * JSON array of one element a line and as one line; "c4" adds test/fixtures/aiperf-real-c4;
 * "server-metrics-json" an aiperf server_metrics_export.json of RUNLENS_MEASURE_SM endpoints ×
 * seconds, default "64x3600" (2.6 GB), uploaded alone and read from its file). The request body arrives
 * as a socket gives it, 64 KiB a turn (RUNLENS_MEASURE_PACED=0: all at once), its multipart text
 * written here and the files read from disk as it is sent (RUNLENS_MEASURE_BODY=form: a FormData
 * of the files read into memory, encoded by the fetch implementation on this thread). After
 * each upload, a digest of what it stored (every table's rows of the run, ids and instants left
 * out, as test/bench/ingest-digest.mjs reads them): two builds that store the same agree.
 * Printed, never asserted. RUNLENS_MEASURE_PROFILE_DIR keeps each upload's whole CPU profile and
 * its slices there.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import inspector from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import SQLite from "better-sqlite3";
import { it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { drilldownsSettled } from "@/lib/ingest/drilldown";
import { openConnection, quote } from "@/lib/store/columnar/engine";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { writeLongServerMetricsJson } from "../generators/aiperf-server-metrics-long.mjs";
import { openTestApp, streamingUploadRequest, uploadRequest } from "../helpers/test-app";

const SLICE_MS = Number(process.env.RUNLENS_MEASURE_SLICE_MS ?? 30);
const KINDS = (process.env.RUNLENS_MEASURE_KINDS ?? "trtllm,aiperf").split(",");
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
const cpuMs = fs.existsSync(SCHEDSTAT)
  ? () => Number(fs.readFileSync(SCHEDSTAT, "utf8").split(" ")[0]) / 1e6
  : () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };

interface Slice {
  from: number;
  to: number;
  cpu: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Per slice: the project frames (and GC) its samples were in, most first. */
function attribute(
  slices: Slice[],
  profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number },
  originMs: number,
  gcs: Array<{ from: number; to: number }>,
): string[] {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const root = path.resolve(".");
  const label = (id: number): string => {
    // The innermost project frame, with the leaf beneath it.
    const leaf = byId.get(id)!.callFrame;
    if (leaf.functionName === "(garbage collector)") return "GC";
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (f.url.includes(root) && !f.url.includes("node_modules") && !f.url.includes("/test/")) {
        const where = `${f.functionName || "(anon)"} ${path.relative(root, f.url.replace(/^file:\/\//, ""))}:${f.lineNumber + 1}`;
        return leaf === f ? where : `${where} > ${leaf.functionName || "(anon)"}`;
      }
    }
    return `[${leaf.functionName || "(anon)"} ${leaf.url.split("/").slice(-2).join("/")}]`;
  };
  const times: number[] = [];
  let t = profile.startTime / 1000 - originMs;
  for (const d of profile.timeDeltas) times.push((t += d / 1000));
  return slices.map((s) => {
    const counts = new Map<string, number>();
    let n = 0;
    for (let i = 0; i < times.length; i++) {
      if (times[i] < s.from || times[i] > s.to) continue;
      const l = label(profile.samples[i]);
      if (l.startsWith("[(idle)") || l.startsWith("[(program)")) continue;
      counts.set(l, (counts.get(l) ?? 0) + 1);
      n++;
    }
    const gc = gcs.filter((g) => g.to > s.from && g.from < s.to).reduce((a, g) => a + (g.to - g.from), 0);
    const top = [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([l, c]) => `${Math.round((100 * c) / Math.max(1, n))}% ${l}`);
    return `${s.cpu.toFixed(1)} ms CPU (wall ${(s.to - s.from).toFixed(0)}, GC ${gc.toFixed(1)} ms): ${top.join(" | ")}`;
  });
}

/** The request with its body handed over 64 KiB a turn of the event loop, as a socket delivers it. */
function paced(req: Request): Request {
  if (process.env.RUNLENS_MEASURE_PACED === "0") return req;
  const reader = req.body!.getReader();
  let pending = new Uint8Array(0);
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      if (pending.length === 0) {
        const r = await reader.read();
        if (r.done) return c.close();
        pending = r.value;
      }
      const piece = pending.subarray(0, 64 * 1024);
      pending = pending.subarray(piece.length);
      await new Promise((r) => setImmediate(r));
      c.enqueue(piece);
    },
  });
  return new Request(req.url, { method: "POST", headers: req.headers, body, duplex: "half" } as RequestInit);
}

const VARYING = /^(id|run_id|file_id|name|created_at|updated_at|ingested_at|heartbeat_at|.*_ready_at)$/;

/** Per table of the run: rows and a hash of them, ids, names and instants left out. */
function digestRun(file: string, runId: string): string[] {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const fileIds = (
      db.prepare("select id from files where run_id = ?").all(runId) as Array<{ id: string }>
    ).map((r) => r.id);
    const anonymise = (text: string) => {
      let out = text.replaceAll(runId, "<run>");
      for (const id of fileIds) out = out.replaceAll(id, "<file>");
      return out;
    };
    const tables = (
      db.prepare("select name from sqlite_master where type = 'table' order by name").all() as Array<{
        name: string;
      }>
    ).map((t) => t.name);
    const lines: string[] = [];
    for (const table of tables) {
      const columns = db.prepare(`pragma table_info("${table}")`).all() as Array<{ name: string }>;
      const key = table === "runs" ? "id" : "run_id";
      if (!columns.some((c) => c.name === key)) continue;
      // A Parquet file's hash differs with the ids it holds: its rows are digested instead.
      const kept = columns
        .map((c) => c.name)
        .filter((c) => !VARYING.test(c) && !(table === "run_column_files" && c === "sha256"));
      const rows = (
        db
          .prepare(`select ${kept.map((c) => `"${c}"`).join(",")} from "${table}" where "${key}" = ?`)
          .raw()
          .all(runId) as unknown[][]
      )
        .map((r) =>
          anonymise(
            JSON.stringify(r, (k, v) => {
              if (v && typeof v === "object" && v.type === "Buffer")
                return Buffer.from(v.data).toString("base64");
              if (kept[Number(k)] === "summary" && typeof v === "string") {
                const summary = JSON.parse(v);
                delete summary.ingestedAt;
                return JSON.stringify(summary);
              }
              return v;
            }),
          ),
        )
        .sort();
      if (rows.length === 0) continue;
      const hash = crypto.createHash("sha256");
      for (const r of rows) hash.update(`${r}\n`);
      lines.push(`${table} ${rows.length} ${hash.digest("hex").slice(0, 16)}`);
    }
    return lines;
  } finally {
    db.close();
  }
}

/**
 * Per Parquet file of the run (run_column_files): its rows and a hash of them, read back by
 * DuckDB, ids left out (the file's own hash differs with the run and file ids it holds).
 */
async function digestColumnFiles(dataDir: string, runId: string): Promise<string[]> {
  const db = new SQLite(path.join(dataDir, "runlens.sqlite"), { readonly: true, fileMustExist: true });
  let files: Array<{ name: string; sha256: string }>;
  let fileIds: string[];
  try {
    files = db
      .prepare("select name, sha256 from run_column_files where run_id = ? order by name")
      .all(runId) as typeof files;
    fileIds = (db.prepare("select id from files where run_id = ?").all(runId) as Array<{ id: string }>).map(
      (r) => r.id,
    );
  } finally {
    db.close();
  }
  const conn = await openConnection();
  const lines: string[] = [];
  try {
    for (const f of files) {
      const dir = path.join(dataDir, "blobs", f.sha256.slice(0, 2));
      const file = [f.sha256, `${f.sha256}.raw`].map((n) => path.join(dir, n)).find((p) => fs.existsSync(p));
      if (!file) {
        lines.push(`${f.name} (no identity file)`);
        continue;
      }
      const reader = await conn.runAndReadAll(`select * from read_parquet(${quote(file)})`);
      const hash = crypto.createHash("sha256");
      const rows = reader.getRowsJS();
      for (const r of rows) {
        let text = JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? v.toString() : v)).replaceAll(
          runId,
          "<run>",
        );
        for (const id of fileIds) text = text.replaceAll(id, "<file>");
        hash.update(`${text}\n`);
      }
      lines.push(`parquet ${f.name} ${rows.length} ${hash.digest("hex").slice(0, 16)}`);
    }
  } finally {
    conn.closeSync();
  }
  return lines;
}

/**
 * An upload whose multipart body is written here and its files read from disk 64 KiB at a time as
 * it is sent: no multipart encoding by the fetch implementation, whose reads of a whole-file Blob
 * put slices of 0.1–0.8 s of the test's own CPU on this thread, among the server's.
 */
function diskUploadRequest(files: Array<{ name: string; path: string }>): Request {
  const boundary = `runlens-measure-${crypto.randomBytes(8).toString("hex")}`;
  async function* parts() {
    for (const f of files) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\n` +
          "Content-Type: application/octet-stream\r\n\r\n",
      );
      for await (const chunk of fs.createReadStream(f.path, { highWaterMark: 64 * 1024 }))
        yield chunk as Buffer;
      yield Buffer.from("\r\n");
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  const iter = parts();
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      const r = await iter.next();
      if (r.done) c.close();
      else c.enqueue(new Uint8Array(r.value.buffer, r.value.byteOffset, r.value.byteLength));
    },
  });
  return streamingUploadRequest(body, boundary);
}

/** An upload whose files are read from disk as the body is sent (a file past what one Buffer holds). */
async function fileUploadRequest(files: Array<{ name: string; path: string }>): Promise<Request> {
  const form = new FormData();
  for (const f of files) form.append("file", await fs.openAsBlob(f.path), f.name);
  return new Request("http://localhost/api/runs", { method: "POST", body: form });
}

async function measure(
  name: string,
  files: Array<{ name: string; path: string }>,
  dataDir: string,
  request: Request = process.env.RUNLENS_MEASURE_BODY === "form"
    ? uploadRequest(files)
    : diskUploadRequest(files),
) {
  const session = new inspector.Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 500 });
  const gcs: Array<{ from: number; to: number }> = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push({ from: e.startTime, to: e.startTime + e.duration });
  });
  obs.observe({ entryTypes: ["gc"] });
  const slices: Slice[] = [];
  let turns = 0;
  let running = true;
  let lastCpu = cpuMs();
  let lastAt = performance.now();
  const tick = () => {
    const c = cpuMs();
    const now = performance.now();
    if (c - lastCpu > SLICE_MS) slices.push({ from: lastAt, to: now, cpu: c - lastCpu });
    lastCpu = c;
    lastAt = now;
    turns++;
    if (running) setImmediate(tick);
  };
  const origin = performance.now();
  // The profiler's start is synchronous main-thread work (V8 first records the code the process
  // has compiled: 67–80 ms before an aiperf upload measured alone, more after other uploads). It
  // was the "first turn of the upload route" of earlier measurements: it is the measurement's,
  // not the upload's, and the slices count from after it; its CPU is printed on its own.
  const startCpu = cpuMs();
  await session.post("Profiler.start");
  const profilerStartMs = cpuMs() - startCpu;
  lastCpu = cpuMs();
  lastAt = performance.now();
  setImmediate(tick);
  const cpu0 = cpuMs();
  const req = paced(request);
  const res = await upload(req);
  const body = await res.text();
  // The drill-down half (request rows, timeline) runs after the answer.
  await drilldownsSettled();
  running = false;
  const whole = cpuMs() - cpu0;
  const { profile } = await session.post("Profiler.stop");
  obs.disconnect();
  session.disconnect();
  // The profile's clock: its start is `origin` give or take the call.
  const attributed = attribute(slices, profile as never, profile.startTime / 1000 - origin, gcs);
  // RUNLENS_MEASURE_PROFILE_DIR: the whole profile (Chrome DevTools, speedscope) and the slices,
  // in ms from the profile's first sample, kept for a closer look.
  const keep = process.env.RUNLENS_MEASURE_PROFILE_DIR;
  if (keep) {
    const base = path.join(keep, name.replace(/\W+/g, "-"));
    fs.writeFileSync(`${base}.cpuprofile`, JSON.stringify(profile));
    fs.writeFileSync(
      `${base}.slices.json`,
      JSON.stringify(slices.map((s) => ({ from: s.from - origin, to: s.to - origin, cpu: s.cpu }))),
    );
  }
  console.log(
    `${name}: ${res.status} ${body.slice(0, 80)}; main-thread CPU ${Math.round(whole)} ms in ${turns} turns; ` +
      `${slices.length} slices over ${SLICE_MS} ms (the profiler's start before them, ${profilerStartMs.toFixed(1)} ms); longest ${Math.max(0, ...slices.map((s) => s.cpu)).toFixed(1)} ms; load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
  );
  for (const a of attributed) console.log(`  ${a}`);
  const id = (JSON.parse(body) as { id: string }).id;
  for (const line of digestRun(path.join(dataDir, "runlens.sqlite"), id)) console.log(`  digest ${line}`);
  for (const line of await digestColumnFiles(dataDir, id)) console.log(`  digest ${line}`);
}

it.skipIf(process.env.RUNLENS_MEASURE !== "1")(
  "measures",
  async () => {
    const t = await openTestApp({ RUNLENS_DRILLDOWN: "background" });
    const dir =
      process.env.RUNLENS_MEASURE_INPUTS ?? fs.mkdtempSync(path.join(os.tmpdir(), "runlens-ingest-slices-"));
    try {
      if (KINDS.includes("trtllm")) {
        const d = path.join(dir, "trtllm");
        if (!fs.existsSync(d))
          generateTrtllmRun({
            dir: d,
            mode: "disaggregated",
            requests: Number(process.env.RUNLENS_MEASURE_TRTLLM ?? 20_000),
          });
        const files = fs
          .readdirSync(d)
          .sort()
          .map((f) => ({ name: f, path: path.join(d, f) }));
        await measure(`TensorRT-LLM (${files.length} files)`, files, t.dataDir);
      }
      // The same records as the older /perf_metrics JSON array: one element a line, and one line
      // holding the whole array (a single document larger than the detection head).
      for (const [kind, label, join] of [
        ["trtllm-array", "JSON array", (lines: string[]) => `[\n${lines.join(",\n")}\n]\n`],
        ["trtllm-doc", "single-document JSON array", (lines: string[]) => `[${lines.join(",")}]`],
      ] as const) {
        if (!KINDS.includes(kind)) continue;
        const d = path.join(dir, "trtllm");
        if (!fs.existsSync(d))
          generateTrtllmRun({
            dir: d,
            mode: "disaggregated",
            requests: Number(process.env.RUNLENS_MEASURE_TRTLLM ?? 20_000),
          });
        const out = path.join(dir, kind);
        if (!fs.existsSync(out)) {
          fs.mkdirSync(out);
          for (const f of fs.readdirSync(d).sort()) {
            const lines = fs
              .readFileSync(path.join(d, f), "utf8")
              .split("\n")
              .filter((l) => l.trim() !== "");
            fs.writeFileSync(path.join(out, f.replace(/\.jsonl$/, ".json")), join(lines));
          }
        }
        const files = fs
          .readdirSync(out)
          .sort()
          .map((f) => ({ name: f, path: path.join(out, f) }));
        await measure(`TensorRT-LLM ${label} (${files.length} files)`, files, t.dataDir);
      }
      if (KINDS.includes("aiperf")) {
        const d = path.join(dir, "aiperf");
        if (!fs.existsSync(d))
          await generateAiperfRun(d, {
            records: Number(process.env.RUNLENS_MEASURE_N ?? 200_000),
            csv: false,
          });
        await measure(
          "aiperf",
          [{ name: "profile_export.jsonl", path: path.join(d, "profile_export.jsonl") }],
          t.dataDir,
        );
      }
      if (KINDS.includes("server-metrics-json")) {
        const [endpoints, seconds] = (process.env.RUNLENS_MEASURE_SM ?? "64x3600").split("x").map(Number);
        const file = path.join(dir, `server-metrics-${endpoints}x${seconds}`, "server_metrics_export.json");
        if (!fs.existsSync(file)) {
          fs.mkdirSync(path.dirname(file), { recursive: true });
          await writeLongServerMetricsJson(file, { endpoints, seconds });
        }
        const files = [{ name: "server_metrics_export.json", path: file }];
        await measure(
          `aiperf server metrics JSON (${endpoints} endpoints × ${seconds} s, ${Math.round(fs.statSync(file).size / 1e6)} MB)`,
          files,
          t.dataDir,
          await fileUploadRequest(files),
        );
      }
      if (KINDS.includes("c4")) {
        const d = path.resolve("test/fixtures/aiperf-real-c4");
        const files = fs
          .readdirSync(d)
          .filter((f) => f !== "INDEX.md" && f !== "ground_truth.json")
          .sort()
          .map((f) => ({ name: f, path: path.join(d, f) }));
        await measure("aiperf-real-c4", files, t.dataDir);
      }
    } finally {
      if (!process.env.RUNLENS_MEASURE_INPUTS) fs.rmSync(dir, { recursive: true, force: true });
      await t.cleanup();
    }
  },
  3_600_000,
);
