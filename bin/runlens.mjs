#!/usr/bin/env node
// Runlens CLI: upload a benchmark's artifacts and print the run's link. Plain Node 20, no build
// step and no dependencies, so a CI job can run it with `npx runlens` straight from a checkout.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const USAGE = `usage: runlens upload <dir|files…> [--server URL] [--name NAME] [--labels a,b] [--token TOKEN]
                      [--series S] [--commit SHA] [--branch B]
                      [--baseline last|last:N|RUN_ID] [--fail-on RULES] [--format markdown|json]

Uploads the files (folders are walked) to a Runlens server, prints the run URL on stdout and
each file's detected kind and warnings on stderr. Defaults: RUNLENS_SERVER, RUNLENS_API_TOKEN.

With --baseline or --fail-on it is a CI gate: it judges the run against the baseline (default
last) and prints the verdicts (Markdown by default) on stdout. RULES like "ttft.p99>5%,throughput<-3%".
Exit codes: 0 no regression, 1 a regression past a rule, 2 could not judge (no baseline, upload failed).`;

class CliError extends Error {}
/** An error of the CI gate: it could not judge, exit 2. */
class GateError extends CliError {}

const OPTIONS = {
  server: { type: "string" },
  name: { type: "string" },
  labels: { type: "string" },
  token: { type: "string" },
  series: { type: "string" },
  commit: { type: "string" },
  branch: { type: "string" },
  baseline: { type: "string" },
  "fail-on": { type: "string" },
  format: { type: "string" },
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
    series: values.series,
    commit: values.commit,
    branch: values.branch,
    baseline: values.baseline,
    failOn: values["fail-on"],
    format: values.format ?? "markdown",
    gate: values.baseline !== undefined || values["fail-on"] !== undefined,
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
  for (const field of ["series", "commit", "branch"]) if (opts[field]) form.append(field, opts[field]);
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
  if (body.status === "failed")
    throw new CliError(`the run was stored but failed to ingest: ${new URL(body.url, base)}`);
  if (!opts.gate) {
    process.stdout.write(`${new URL(body.url, base).href}\n`);
    return 0;
  }
  process.stderr.write(`run: ${new URL(body.url, base).href}\n`);
  return gate(base, body.id, opts, headers);
}

/** The run's verdicts against its baseline: the summary on stdout, the gate's exit code returned. */
async function gate(base, id, opts, headers) {
  const url = new URL(`api/runs/${id}/verdicts`, base);
  url.searchParams.set("baseline", opts.baseline ?? "last");
  if (opts.failOn) url.searchParams.set("failOn", opts.failOn);
  url.searchParams.set("format", "json");
  let res;
  try {
    res = await fetch(url, { headers });
  } catch (err) {
    throw new CliError(`cannot reach ${base.origin}: ${err.cause?.code ?? err.message}`);
  }
  const body = await res.json().catch(() => null);
  if (!res.ok)
    throw new CliError(`verdicts failed (${res.status}): ${body?.error?.message ?? res.statusText}`);
  process.stdout.write(opts.format === "json" ? `${JSON.stringify(body, null, 2)}\n` : body.markdown);
  for (const r of body.reasons) process.stderr.write(`runlens: ${r}\n`);
  return body.exitCode;
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
  if (opts.gate && !["markdown", "json"].includes(opts.format))
    throw new GateError(`--format must be markdown or json, not ${opts.format}`);
  if (!opts.gate) return upload(opts);
  // A gate that could not judge (bad arguments, no server, a refused upload) exits 2, not 1.
  try {
    return await upload(opts);
  } catch (err) {
    throw err instanceof CliError ? new GateError(err.message) : err;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(
      `runlens: ${err instanceof CliError ? err.message : `unexpected error: ${err?.message ?? err}`}\n`,
    );
    process.exit(err instanceof GateError ? 2 : 1);
  },
);
