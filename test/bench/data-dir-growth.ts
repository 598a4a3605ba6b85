/**
 * What one upload adds to a fresh data dir, part by part (docs/performance.md §Data dir growth):
 * a generated aiperf run (test/generators/aiperf.mjs) through POST /api/runs on the file store
 * and SQLite, measured once its drill-down is ready and its raw files are gzipped. A hard link
 * counts once in the total, as on disk.
 *
 *   JITI_ALIAS="{\"@\":\"$PWD\"}" node node_modules/jiti/lib/jiti-cli.mjs test/bench/data-dir-growth.ts [--records 100000]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { POST } from "@/app/api/runs/route";
import { drilldownsSettled } from "@/lib/ingest/drilldown";
import { getAppContext, resetAppContext } from "@/lib/server/app-context";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";

/**
 * The part of the data dir a file belongs to, by its path there; a run's Parquet file by its
 * name among the run's columnar files (`columnar`, by sha256).
 */
function partOf(rel: string, columnar: ReadonlyMap<string, string>): string {
  if (/^blobs\/[0-9a-f]{2}\/[0-9a-f]{64}\.gz$/.test(rel)) return "blobs, gzipped (raw upload)";
  if (/^blobs\/[0-9a-f]{2}\/[0-9a-f]{64}\.raw$/.test(rel)) return "blobs, not yet gzipped";
  if (/^blobs\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(rel))
    return `blobs, Parquet (${columnar.get(rel.slice(-64)) ?? "named by no run"})`;
  if (/^columnar-cache\/[0-9a-f]{64}\.parquet$/.test(rel)) return "Parquet cache";
  return rel.replace(/[0-9a-f-]{20,}/g, "*");
}

function walk(root: string, dir = root, out: Array<{ rel: string; stat: fs.Stats }> = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(root, p, out);
    else out.push({ rel: path.relative(root, p).split(path.sep).join("/"), stat: fs.statSync(p) });
  }
  return out;
}

const distinct = (all: ReturnType<typeof walk>) =>
  [...new Map(all.map((f) => [f.stat.ino, f.stat.size])).values()].reduce((s, n) => s + n, 0);

async function main() {
  const at = process.argv.indexOf("--records");
  const records = at > 0 ? Number(process.argv[at + 1]) : 100_000;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-data-dir-growth-"));
  try {
    await generateAiperfRun(path.join(work, "gen"), { records, csv: false });
    const inputs = fs.readdirSync(path.join(work, "gen")).map((n) => path.join(work, "gen", n));
    const inputBytes = inputs.reduce((s, p) => s + fs.statSync(p).size, 0);
    Object.assign(process.env, {
      DATA_DIR: path.join(work, "data"),
      RUNLENS_EXAMPLES: "off",
      RUNLENS_REBUILD_ROW_RUNS: "off",
    });
    delete process.env.DATABASE_URL;
    const app = await getAppContext();
    const dataDir = path.join(work, "data");
    const before = distinct(walk(dataDir));
    const form = new FormData();
    for (const p of inputs) form.append("file", new Blob([fs.readFileSync(p)]), path.basename(p));
    const res = await POST(new Request("http://localhost/api/runs", { method: "POST", body: form }));
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    await drilldownsSettled();
    await app.blobs.compressPending?.();
    const after = walk(dataDir);
    const named = await app.store.db.selectFrom("run_column_files").select(["sha256", "name"]).execute();
    const columnar = new Map(named.map((r) => [r.sha256, r.name]));
    const parts = new Map<string, number>();
    for (const f of after) {
      const part = partOf(f.rel, columnar);
      parts.set(part, (parts.get(part) ?? 0) + f.stat.size);
    }
    console.log(`input: ${records.toLocaleString("en")} records, ${inputBytes.toLocaleString("en")} B`);
    for (const [part, bytes] of [...parts].sort((a, b) => b[1] - a[1]))
      console.log(`  ${part.padEnd(40)} ${bytes.toLocaleString("en").padStart(12)} B`);
    const linked = after.filter((f) => f.stat.nlink > 1).map((f) => f.rel);
    if (linked.length) console.log(`  hard links (counted once): ${linked.join(", ")}`);
    const growth = distinct(after) - before;
    console.log(`growth: ${growth.toLocaleString("en")} B = ${(growth / inputBytes).toFixed(3)}× the input`);
  } finally {
    await resetAppContext();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
