// The measured half of test/bench/timeline-read.mjs, run by jiti so it imports the TypeScript sources.
import path from "node:path";
import { timelineFromRows } from "@/lib/ingest/timeline-columns";
import { timelineWindow } from "@/lib/metrics/request-timeline";
import { packTimeline, unpackTimeline } from "@/lib/metrics/request-timeline-pack";
import { migrate, openSqlite } from "@/lib/store/db";
import { rawSqlite } from "@/lib/store/raw-sqlite";
import type { FileRow } from "@/lib/store/runs-repo";
import { readTimelineColumns, writeTimelineColumns } from "@/lib/store/timeline-columns";
import { prng } from "../generators/prng.mjs";

async function main() {
  const [dir, count, rounds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
  const handle = openSqlite(path.join(dir, "bench.db"));
  await migrate(handle);
  const sqlite = rawSqlite(handle.db)!;
  const rand = prng(2);
  // 32 client workers sending back to back; conversations of 1–20 turns, as a multi-turn run.
  const insert = sqlite.prepare(
    "insert into aiperf_requests (run_id, file_id, line, phase, ok, cancelled, start_ms, end_ms, ttft_ms, e2e_ms, conversation_id, worker_id) values ('r', 'f', ?, 'profiling', ?, 0, ?, ?, ?, ?, ?, ?)",
  );
  const workerFree = new Float64Array(32);
  let conversation = 0;
  let turnsLeft = 0;
  let t = performance.now();
  sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      if (turnsLeft-- <= 0) {
        conversation++;
        turnsLeft = Math.floor(rand() * 20);
      }
      const w = i % 32;
      const start = workerFree[w] + rand() * 5;
      const ttft = 20 + rand() * 200;
      const e2e = ttft + 100 + rand() * 2000;
      workerFree[w] = start + e2e;
      insert.run(
        i + 1,
        i % 200 === 0 ? 0 : 1,
        start,
        start + e2e,
        ttft,
        e2e,
        `conv-${conversation}`,
        `worker_${w}`,
      );
    }
  })();
  console.log(
    `${count.toLocaleString("en")} rows written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const files = [{ id: "f", ord: 0, name: "profile_export.jsonl" } as FileRow];
  const ms = () => performance.now() - t;
  // CPU time beside wall time: on a shared machine the wall clock mostly measures the queue for a core.
  let cpu0 = process.cpuUsage();
  const cpuMs = () => {
    const d = process.cpuUsage(cpu0);
    return (d.user + d.system) / 1000;
  };
  for (let r = 1; r <= rounds; r++) {
    t = performance.now();
    cpu0 = process.cpuUsage();
    const fromRows = (await timelineFromRows(handle.db, "r", files, null))!;
    const rowsRead = ms();
    const rowsCpu = cpuMs();
    timelineWindow(fromRows, { limit: 5000 });
    const rowsWindow = ms();
    t = performance.now();
    await writeTimelineColumns(handle.db, "r", fromRows.n, packTimeline(fromRows));
    const write = ms();
    t = performance.now();
    cpu0 = process.cpuUsage();
    const stored = (await readTimelineColumns(handle.db, "r"))!;
    const unpacked = unpackTimeline(stored)!;
    const blobRead = ms();
    const blobCpu = cpuMs();
    timelineWindow(unpacked, { limit: 5000 });
    const blobWindow = ms();
    const bytes = (
      sqlite.prepare("select length(data) as n from run_timeline_columns where run_id = 'r'").get() as {
        n: number;
      }
    ).n;
    console.log(
      `round ${r}: from rows ${rowsRead.toFixed(0)} ms read (${rowsCpu.toFixed(0)} ms CPU) + ${(rowsWindow - rowsRead).toFixed(0)} ms first window; ` +
        `columns written ${write.toFixed(0)} ms (${(bytes / 1e6).toFixed(1)} MB); ` +
        `from columns ${blobRead.toFixed(0)} ms read (${blobCpu.toFixed(0)} ms CPU) + ${(blobWindow - blobRead).toFixed(0)} ms first window`,
    );
  }
  await handle.close();
}

void main();
