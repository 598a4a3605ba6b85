/**
 * Run by jiti in a child process (test/helpers/crash-ingest.ts, spawnIngest): uploads argv[2]
 * through the real POST /api/runs and prints "finished <status>". A file goes under its own
 * name, a folder as its files under their paths below it. argv[3] and argv[4] hold the ingest
 * before its commit and before its drill-down that many milliseconds (0: not held). It says when it
 * has started, loaded the sources and begun the upload: a test that times out waiting on it shows
 * how far it got.
 */
import fs from "node:fs";
import path from "node:path";

function filesBelow(dir: string, prefix = ""): Array<[string, string]> {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e): Array<[string, string]> =>
      e.isDirectory()
        ? filesBelow(path.join(dir, e.name), prefix + e.name + "/")
        : [[path.join(dir, e.name), prefix + e.name]],
    );
}

async function main() {
  const t0 = performance.now();
  console.log("started");
  const [{ POST }, { holdIngests }] = await Promise.all([
    import("@/app/api/runs/route"),
    import("./hold-ingests"),
  ]);
  console.log(`loaded the sources in ${Math.round(performance.now() - t0)} ms`);
  const [input, commitMs, drilldownMs] = process.argv.slice(2);
  holdIngests({ commitMs: Number(commitMs), drilldownMs: Number(drilldownMs) });
  const files: Array<[string, string]> = fs.statSync(input).isDirectory()
    ? filesBelow(input)
    : [[input, path.basename(input)]];
  const form = new FormData();
  for (const [file, name] of files) form.append("file", new Blob([fs.readFileSync(file)]), name);
  console.log(`uploading ${files.length} ${files.length === 1 ? "file" : "files"}`);
  const res = await POST(new Request("http://localhost/api/runs", { method: "POST", body: form }));
  console.log("finished", res.status);
}
void main();
