#!/usr/bin/env node
// The hottest functions by self time in V8 CPU profiles (`node --cpu-prof` writes one
// .cpuprofile per thread), per thread: docs/performance.md, "Where ingest spends its time".
//
//   node test/bench/cpu-top.mjs [--top 10] [--windows windows.json] <file.cpuprofile | dir>…
//
// A directory stands for every .cpuprofile in it. --windows keeps only the samples taken inside
// the listed intervals ([{ startUs, endUs }], CLOCK_MONOTONIC µs, the clock V8 stamps samples
// with and process.hrtime reads): the bench writes the upload's intervals there, so the
// server's start, warm-up and shutdown stay out of the table.
import fs from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The bundle's source maps (`<chunk>.js.map` beside it), read once per chunk; null without one. */
const maps = new Map();
function mapOf(url) {
  if (!maps.has(url)) {
    let map = null;
    try {
      const file = url.startsWith("file://") ? fileURLToPath(url) : url;
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, "utf8")));
    } catch {
      // no map: the bundled name and place stand
    }
    maps.set(url, map);
  }
  return maps.get(url);
}

/** A minified frame as the source names it: the function's own name and file:line, where the map knows them. */
function original(f) {
  const map = f.url ? mapOf(f.url) : null;
  const e = map?.findEntry(f.lineNumber, f.columnNumber);
  if (!e || !e.originalSource) return null;
  // The map names the identifier at the function's start: its declared name when it has one.
  const source = e.originalSource
    .replace(/^file:\/\//, "")
    .replace(/^.*?\[project\]\//, "")
    .replace(/^(\.\.\/)+/, "");
  return { name: e.name || f.functionName || "(anonymous)", where: `${source}:${e.originalLine + 1}` };
}

/** A sample's self time is the interval until the next sample (as DevTools counts it). */
export function selfTimes(profile, windows = null) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map();
  const { samples, timeDeltas } = profile;
  let t = profile.startTime;
  let sampledUs = 0;
  for (let i = 0; i < samples.length; i++) {
    t += timeDeltas[i];
    const dt = i + 1 < samples.length ? timeDeltas[i + 1] : 0;
    if (dt <= 0) continue;
    if (windows && !windows.some((w) => t >= w.startUs && t < w.endUs)) continue;
    const f = byId.get(samples[i]).callFrame;
    const o = original(f);
    const name = o?.name ?? (f.functionName || "(anonymous)");
    const where = o?.where ?? (f.url ? `${shortUrl(f.url)}:${f.lineNumber + 1}` : "");
    const key = `${name}\u0000${where}`;
    const e = totals.get(key) ?? { name, where, us: 0 };
    e.us += dt;
    totals.set(key, e);
    sampledUs += dt;
  }
  return { sampledUs, functions: [...totals.values()].sort((a, b) => b.us - a.us) };
}

/** The project's files relative to the repository, dependencies by package, Node's own as is. */
function shortUrl(url) {
  const p = url.replace(/^file:\/\//, "");
  const nm = p.lastIndexOf("node_modules/");
  if (nm !== -1) return p.slice(nm + "node_modules/".length);
  const next = p.indexOf("/.next");
  if (next !== -1) return p.slice(next + 1);
  const lib = p.search(/\/(lib|bin)\//);
  return lib !== -1 ? p.slice(lib + 1) : p;
}

/** Which thread wrote the profile: node names the file CPU.<date>.<time>.<pid>.<thread>.<seq>. */
export function threadName(file, profile) {
  const tid = path.basename(file).split(".")[4];
  if (tid === "0") return "main thread";
  const urls = new Set(profile.nodes.map((n) => n.callFrame.url));
  for (const u of urls) if (/aiperf-parse-worker/.test(u)) return `aiperf parse thread (${tid})`;
  for (const u of urls) if (/sqlite-writer-worker/.test(u)) return `SQLite writer thread (${tid})`;
  return `thread ${tid}`;
}

function profileFiles(args) {
  return args.flatMap((a) =>
    fs.statSync(a).isDirectory()
      ? fs
          .readdirSync(a)
          .filter((f) => f.endsWith(".cpuprofile"))
          .sort()
          .map((f) => path.join(a, f))
      : [a],
  );
}

const ms = (us) => (us / 1000).toFixed(0).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** Markdown: one table per thread, the top `top` functions with their share of the sampled time. */
export function report(files, { top = 10, windows = null } = {}) {
  const out = [];
  for (const file of files) {
    const profile = JSON.parse(fs.readFileSync(file, "utf8"));
    const { sampledUs, functions } = selfTimes(profile, windows);
    if (sampledUs === 0) continue;
    const idle = functions.find((f) => f.name === "(idle)")?.us ?? 0;
    out.push(
      `${threadName(file, profile)}: ${ms(sampledUs)} ms sampled, ${ms(sampledUs - idle)} ms busy` +
        ` (${path.basename(file)})`,
      "",
      "| self ms | % busy | function | where |",
      "| ------: | -----: | -------- | ----- |",
    );
    for (const f of functions.filter((x) => x.name !== "(idle)").slice(0, top)) {
      const share = sampledUs - idle > 0 ? (100 * f.us) / (sampledUs - idle) : 0;
      out.push(`| ${ms(f.us)} | ${share.toFixed(1)} | \`${f.name}\` | ${f.where} |`);
    }
    out.push("");
  }
  return out.join("\n");
}

function main(argv) {
  const opt = (name, dflt) => {
    const i = argv.indexOf(`--${name}`);
    if (i === -1) return dflt;
    const v = argv[i + 1];
    argv.splice(i, 2);
    return v;
  };
  const top = Number(opt("top", "10"));
  const windowsFile = opt("windows", null);
  if (argv.length === 0) {
    console.error("usage: node test/bench/cpu-top.mjs [--top 10] [--windows w.json] <profile|dir>…");
    process.exit(2);
  }
  const windows = windowsFile ? JSON.parse(fs.readFileSync(windowsFile, "utf8")) : null;
  console.log(report(profileFiles(argv), { top, windows }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname))
  main(process.argv.slice(2));
