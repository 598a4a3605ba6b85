// The second floor for aiperf records: DuckDB's own scan of the same JSONL bytes, in a child
// process of its own (so its peak RSS is its own), reading the named columns a summary needs and
// computing exact TTFT and request-latency percentiles. An ingest whose summary is ready within
// 2× this time reads the file about as fast as an analytical engine can (docs/performance.md).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SELF = fileURLToPath(import.meta.url);

/** True when the file's first line is an aiperf record (metadata + metrics objects). */
export function isAiperfRecords(file) {
  if (!/\.jsonl$/i.test(file)) return false;
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(64 * 1024);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    const line = head.toString("utf8", 0, n).split("\n")[0];
    return line.includes('"metadata"') && line.includes('"metrics"');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * DuckDB's scan of the aiperf record files among `files`: { seconds, rows, peakRssBytes }, or
 * null when there are none.
 */
export function duckdbFloor(files) {
  const records = files.filter(isAiperfRecords);
  if (records.length === 0) return null;
  const r = spawnSync(process.execPath, [SELF, ...records], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`DuckDB floor failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop());
}

const COLUMNS = {
  metadata:
    "STRUCT(request_start_ns UBIGINT, request_end_ns UBIGINT, conversation_id VARCHAR, turn_index INTEGER, benchmark_phase VARCHAR, was_cancelled BOOLEAN)",
  metrics:
    "STRUCT(time_to_first_token STRUCT(value DOUBLE), request_latency STRUCT(value DOUBLE), output_token_count STRUCT(value DOUBLE), input_sequence_length STRUCT(value DOUBLE))",
  error: "JSON",
};

async function main(files) {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const t0 = process.hrtime.bigint();
  const db = await DuckDBInstance.create(":memory:", {
    threads: "2",
    autoinstall_known_extensions: "false",
  });
  const c = await db.connect();
  const list = files.map((f) => `'${path.resolve(f).replace(/'/g, "''")}'`).join(", ");
  const cols = Object.entries(COLUMNS)
    .map(([k, v]) => `${k}: '${v}'`)
    .join(", ");
  const sql = `
    select count(*) as rows,
      avg(metrics.time_to_first_token.value) as ttft_mean,
      quantile_cont(metrics.time_to_first_token.value, [0.5, 0.9, 0.99]) as ttft_p,
      quantile_cont(metrics.request_latency.value, [0.5, 0.9, 0.99]) as latency_p,
      sum(metrics.output_token_count.value) as output_tokens,
      min(metadata.request_start_ns) as first_start, max(metadata.request_end_ns) as last_end
    from read_json([${list}], format = 'newline_delimited', columns = {${cols}})`;
  const result = await c.runAndReadAll(sql);
  const row = result.getRowObjects()[0];
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const status = fs.readFileSync("/proc/self/status", "utf8");
  const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  console.log(JSON.stringify({ seconds, rows: Number(row.rows), peakRssBytes: hwm }));
}

if (process.argv[1] === SELF) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
