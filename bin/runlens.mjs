#!/usr/bin/env node
// Runlens CLI: upload a benchmark's artifacts and print the run's link. Plain Node 20, no build
// step and no dependencies, so a CI job can run it with `npx runlens` straight from a checkout.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const USAGE = `usage: runlens upload <dir|files…> [--server URL] [--name NAME] [--labels a,b] [--token TOKEN]

Uploads the files (folders are walked) to a Runlens server, prints the run URL on stdout and
each file's detected kind and warnings on stderr. A parent folder of run folders named for their
load (concurrency_8, llama_c16, …) becomes one run per folder and one sweep: the sweep's URL is
printed instead (--name names the sweep). Defaults: RUNLENS_SERVER, RUNLENS_API_TOKEN.`;

class CliError extends Error {}

const OPTIONS = {
  server: { type: "string" },
  name: { type: "string" },
  labels: { type: "string" },
  token: { type: "string" },
  help: { type: "boolean", short: "h" },
};

/**
 * The upload command's options. Parsed leniently and checked token by token, so a mistake gets
 * one short reason in the CLI's own words instead of parseArgs' multi-line message.
 */
function parseUploadArgs(argv, env = process.env) {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  if (values.help === true) return { help: true };
  for (const t of tokens) {
    if (t.kind !== "option") continue;
    const spec = OPTIONS[t.name];
    if (!spec) throw new CliError(`unknown option ${t.rawName}`);
    if (spec.type === "boolean" && t.value !== undefined) throw new CliError(`${t.rawName} takes no value`);
    if (spec.type === "string" && t.value === undefined) throw new CliError(`${t.rawName} needs a value`);
  }
  return {
    server: values.server ?? env.RUNLENS_SERVER,
    token: values.token ?? env.RUNLENS_API_TOKEN,
    name: values.name,
    labels: values.labels,
    paths: positionals,
  };
}

/** Every regular file under the given paths; dot-files and dot-folders (.git, .DS_Store) are skipped. */
function collectFiles(paths) {
  const out = [];
  const walk = (p, rel) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) throw new CliError(`no such file or folder: ${p}`);
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p).sort()) {
        if (name.startsWith(".")) continue;
        walk(path.join(p, name), rel ? `${rel}/${name}` : name);
      }
    } else if (st.isFile()) out.push({ path: p, name: rel, bytes: st.size });
  };
  for (const p of paths) {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) throw new CliError(`no such file or folder: ${p}`);
    // A folder's files keep their path inside it, so same-named files in subfolders stay apart.
    walk(p, st.isDirectory() ? "" : path.basename(p));
  }
  return out;
}

async function upload(opts) {
  if (opts.paths.length === 0) throw new CliError("nothing to upload: give a folder or files");
  if (!opts.server) throw new CliError("no server: pass --server URL or set RUNLENS_SERVER");
  let base;
  try {
    base = new URL(opts.server.endsWith("/") ? opts.server : `${opts.server}/`);
  } catch {
    throw new CliError(`not a URL: ${opts.server}`);
  }
  const files = collectFiles(opts.paths);
  if (files.length === 0) throw new CliError("no files found to upload");

  const form = new FormData();
  if (opts.name) form.append("name", opts.name);
  if (opts.labels) form.append("labels", opts.labels);
  // File-backed blobs: fetch streams them from disk instead of reading every file into memory.
  for (const f of files) form.append("file", await fs.openAsBlob(f.path), f.name);

  const headers = opts.token ? { Authorization: `Bearer ${opts.token}` } : {};
  let res;
  try {
    res = await fetch(new URL("api/runs", base), { method: "POST", body: form, headers });
  } catch (err) {
    throw new CliError(
      `cannot reach ${base.origin}: ${err.cause?.code ?? err.cause?.message ?? err.message}`,
    );
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const e = body?.error;
    throw new CliError(
      `upload failed (${res.status}${e?.code ? ` ${e.code}` : ""}): ${e?.message ?? res.statusText}`,
    );
  }
  for (const f of body.files ?? []) {
    process.stderr.write(
      `${f.kind.padEnd(22)} ${f.name} (${f.records} records${f.skipped ? `, ${f.skipped} skipped` : ""})\n`,
    );
    for (const w of f.warnings ?? [])
      process.stderr.write(`  warning${w.line ? ` line ${w.line}` : ""}: ${w.message}\n`);
  }
  for (const w of body.warnings ?? []) process.stderr.write(`warning: ${w}\n`);
  if (body.sweep) {
    // One run per folder: each on stderr, the sweep's link on stdout for the CI job to keep.
    for (const r of body.runs ?? [])
      process.stderr.write(`run ${r.folder.padEnd(20)} ${r.status.padEnd(8)} ${new URL(r.url, base).href}\n`);
    const failed = (body.runs ?? []).filter((r) => r.status === "failed");
    if (failed.length > 0)
      throw new CliError(
        `${failed.length} run(s) of the sweep failed to ingest (${failed.map((r) => r.folder).join(", ")}): ${new URL(body.sweep.url, base)}`,
      );
    process.stdout.write(`${new URL(body.sweep.url, base).href}\n`);
    return;
  }
  if (body.status === "failed")
    throw new CliError(`the run was stored but failed to ingest: ${new URL(body.url, base)}`);
  process.stdout.write(`${new URL(body.url, base).href}\n`);
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (!command || command === "-h" || command === "--help" || command === "help") {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  if (command !== "upload") throw new CliError(`unknown command "${command}" (try: runlens upload <dir>)`);
  const opts = parseUploadArgs(rest);
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  await upload(opts);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(
      `runlens: ${err instanceof CliError ? err.message : `unexpected error: ${err?.message ?? err}`}\n`,
    );
    process.exit(1);
  },
);
