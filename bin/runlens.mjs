#!/usr/bin/env node
// Runlens CLI: upload a benchmark's artifacts and print the run's link, or save a run's trace or
// report. Plain Node 20, no build step and no dependencies, so a CI job can run it with
// `npx runlens` straight from a checkout.
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parseArgs } from "node:util";

const USAGE = `usage: runlens upload <dir|files…> [--server URL] [--name NAME] [--labels a,b] [--token TOKEN]
                      [--series S] [--commit SHA] [--branch B] [--order KEY]
                      [--baseline last|last:N|RUN_ID] [--fail-on RULES] [--format markdown|json]
                      [--allow-different NAMES]
       runlens export <run id|run URL> --trace|--report -o FILE [--server URL] [--token TOKEN]

Uploads the files (folders are walked) to a Runlens server, prints the run URL on stdout and
each file's detected kind and warnings on stderr. A parent folder of run folders named for their
load (concurrency_8, llama_c16, …) becomes one run per folder and one sweep: the sweep's URL is
printed instead (--name names the sweep). Defaults: RUNLENS_SERVER, RUNLENS_API_TOKEN.

With --baseline or --fail-on it is a CI gate: it judges the run against the baseline (default
last) and prints the verdicts (Markdown by default) on stdout. RULES like "ttft.p99>5%,throughput<-3%".
Exit codes: 0 no regression, 1 a regression past a rule, 2 could not judge (no baseline, upload failed,
or a baseline not comparable with the run: another model, GPU, workload, collectors…). --allow-different
NAMES accepts the named differences ("model,gpu", or "all"), as the gate's reasons name them.
--order places the run in its series (and so its "last" baseline): a build number, a version
(v1.2.0) or an ISO date (2026-12-01); without it, the upload time.

export: saves the run's requests as a Chrome JSON trace (--trace, for ui.perfetto.dev or
chrome://tracing) or its offline HTML report (--report). A run URL names its server.`;

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
  order: { type: "string" },
  baseline: { type: "string" },
  "fail-on": { type: "string" },
  "allow-different": { type: "string" },
  format: { type: "string" },
  help: { type: "boolean", short: "h" },
};

const EXPORT_OPTIONS = {
  server: { type: "string" },
  token: { type: "string" },
  trace: { type: "boolean" },
  report: { type: "boolean" },
  output: { type: "string", short: "o" },
  help: { type: "boolean", short: "h" },
};

/**
 * A command's options. Parsed leniently and checked token by token, so a mistake gets one short
 * reason in the CLI's own words instead of parseArgs' multi-line message.
 */
function parseOptions(argv, options) {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  // Runs stored before ids stopped beginning with "-" still have such ids: one read as a group of
  // short options (which may hold an "h") is named as what it is before anything else.
  for (const t of tokens) {
    if (t.kind !== "option" || options[t.name] || t.rawName.length !== 2) continue;
    const arg = argv[t.index];
    if (/^-[A-Za-z0-9_][A-Za-z0-9_-]{6,62}$/.test(arg)) {
      throw new CliError(
        `unknown option ${arg}; a run id that begins with "-" goes after "--" (runlens export -- ${arg} ...)`,
      );
    }
  }
  if (values.help === true) return { help: true };
  for (const t of tokens) {
    if (t.kind !== "option") continue;
    const spec = options[t.name];
    if (!spec) throw new CliError(`unknown option ${t.rawName}`);
    if (spec.type === "boolean" && t.value !== undefined) throw new CliError(`${t.rawName} takes no value`);
    if (spec.type === "string" && t.value === undefined) throw new CliError(`${t.rawName} needs a value`);
  }
  return { values, positionals };
}

function parseUploadArgs(argv, env = process.env) {
  const parsed = parseOptions(argv, OPTIONS);
  if (parsed.help) return parsed;
  const { values, positionals } = parsed;
  return {
    server: values.server ?? env.RUNLENS_SERVER,
    token: values.token ?? env.RUNLENS_API_TOKEN,
    name: values.name,
    labels: values.labels,
    series: values.series,
    commit: values.commit,
    branch: values.branch,
    order: values.order,
    baseline: values.baseline,
    failOn: values["fail-on"],
    allowDifferent: values["allow-different"],
    format: values.format ?? "markdown",
    gate: values.baseline !== undefined || values["fail-on"] !== undefined,
    paths: positionals,
  };
}

function parseExportArgs(argv, env = process.env) {
  const parsed = parseOptions(argv, EXPORT_OPTIONS);
  if (parsed.help) return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new CliError("give one run: its id or its URL");
  if (values.trace === values.report) throw new CliError("choose one of --trace or --report");
  if (!values.output) throw new CliError("no output file: pass -o FILE");
  return {
    run: positionals[0],
    what: values.trace ? "trace" : "report",
    output: values.output,
    server: values.server ?? env.RUNLENS_SERVER,
    token: values.token ?? env.RUNLENS_API_TOKEN,
  };
}

function baseUrl(server) {
  if (!server) throw new CliError("no server: pass --server URL or set RUNLENS_SERVER");
  try {
    return new URL(server.endsWith("/") ? server : `${server}/`);
  } catch {
    throw new CliError(`not a URL: ${server}`);
  }
}

/**
 * Every regular file under the given paths; dot-files and dot-folders (.git, .DS_Store) are
 * skipped. A path given on the command line is read wherever it points, but inside a folder a
 * symbolic link is followed only when its target lies inside that folder: one pointing out of it
 * (`passwd.txt → /etc/passwd`) is skipped with a warning, never uploaded, and one leading back
 * to a folder being walked is a loop, an error.
 */
function collectFiles(paths) {
  const out = [];
  const warn = (msg) => process.stderr.write(`runlens: ${msg}\n`);
  const inside = (root, real) =>
    real === root || real.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
  const walk = (p, rel, root, stack) => {
    let st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (!st) throw new CliError(`no such file or folder: ${p}`);
    if (st.isSymbolicLink()) {
      let real;
      try {
        real = fs.realpathSync(p);
      } catch (err) {
        if (err.code === "ELOOP") throw new CliError(`symlink loop: ${p} never resolves`);
        warn(`skipped ${p}: a symbolic link to nothing`);
        return;
      }
      if (!inside(root, real)) {
        warn(`skipped ${p}: a symbolic link to ${real}, outside ${root}`);
        return;
      }
      st = fs.statSync(real);
    }
    if (st.isDirectory()) {
      const real = fs.realpathSync(p);
      if (stack.includes(real)) throw new CliError(`symlink loop: ${p} leads back to ${real}`);
      for (const name of fs.readdirSync(p).sort()) {
        if (name.startsWith(".")) continue;
        walk(path.join(p, name), rel ? `${rel}/${name}` : name, root, [...stack, real]);
      }
    } else if (st.isFile()) out.push({ path: p, name: rel, bytes: st.size });
  };
  for (const p of paths) {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) throw new CliError(`no such file or folder: ${p}`);
    // A folder's files keep their path inside it, so same-named files in subfolders stay apart.
    if (st.isDirectory()) walk(p, "", fs.realpathSync(p), []);
    else if (st.isFile()) out.push({ path: p, name: path.basename(p), bytes: st.size });
  }
  return out;
}

/** A JSON object, or null: an answer that is not one (an HTML page of a proxy) is no answer. */
async function jsonObject(res) {
  const body = await res.json().catch(() => null);
  return body !== null && typeof body === "object" && !Array.isArray(body) ? body : null;
}

/** What an answer of the wrong shape says about itself, for the error line. */
function answerKind(res) {
  return `${res.status} ${res.headers.get("content-type")?.split(";")[0] ?? "without a content type"}`;
}

const isString = (v) => typeof v === "string" && v.length > 0;

async function upload(opts) {
  if (opts.paths.length === 0) throw new CliError("nothing to upload: give a folder or files");
  const base = baseUrl(opts.server);
  const files = collectFiles(opts.paths);
  if (files.length === 0) throw new CliError("no files found to upload");

  const form = new FormData();
  if (opts.name) form.append("name", opts.name);
  if (opts.labels) form.append("labels", opts.labels);
  for (const field of ["series", "commit", "branch", "order"])
    if (opts[field]) form.append(field, opts[field]);
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
  const body = await jsonObject(res);
  if (!res.ok) {
    const e = body?.error;
    throw new CliError(
      `upload failed (${res.status}${e?.code ? ` ${e.code}` : ""}): ${e?.message ?? res.statusText}`,
    );
  }
  checkUploadAnswer(res, body);
  for (const f of body.files ?? []) {
    process.stderr.write(
      `${f.kind.padEnd(22)} ${f.name} (${f.records} records${f.skipped ? `, ${f.skipped} skipped` : ""})\n`,
    );
    for (const w of f.warnings ?? [])
      process.stderr.write(`  warning${w.line ? ` line ${w.line}` : ""}: ${w.message}\n`);
  }
  for (const w of body.warnings ?? []) process.stderr.write(`warning: ${w}\n`);
  if (body.sweep || (body.runs ?? []).length > 1) {
    // Several runs: each on stderr, the sweep's link (else each run's) on stdout for the CI job to keep.
    for (const r of body.runs ?? [])
      process.stderr.write(`run ${r.folder.padEnd(20)} ${r.status.padEnd(8)} ${new URL(r.url, base).href}\n`);
    const failed = (body.runs ?? []).filter((r) => r.status === "failed");
    const where = body.sweep
      ? new URL(body.sweep.url, base).href
      : failed.map((r) => new URL(r.url, base).href).join(" ");
    if (failed.length > 0)
      throw new CliError(
        `${failed.length} ${failed.length === 1 ? "run" : "runs"} of the upload failed to ingest (${failed.map((r) => r.folder).join(", ")}): ${where}`,
      );
    if (body.sweep) process.stdout.write(`${new URL(body.sweep.url, base).href}\n`);
    else for (const r of body.runs) process.stdout.write(`${new URL(r.url, base).href}\n`);
    if (opts.gate)
      throw new CliError(
        `a CI gate judges one run, and this upload made ${body.sweep ? "a sweep" : `${body.runs.length} runs`}: upload one run folder`,
      );
    return 0;
  }
  if (body.status === "failed")
    throw new CliError(`the run was stored but failed to ingest: ${new URL(body.url, base)}`);
  if (!opts.gate) {
    process.stdout.write(`${new URL(body.url, base).href}\n`);
    return 0;
  }
  process.stderr.write(`run: ${new URL(body.url, base).href}\n`);
  return gate(base, body.id, opts, headers);
}

/**
 * An upload's answer must be a run (an id and its URL, a status) or a sweep of runs; anything
 * else (a login page, a proxy's `200 {"ok":true}`) is an error, never a link to `…/undefined`.
 */
function checkUploadAnswer(res, body) {
  const bad = (what) => {
    throw new CliError(`the server's answer is not a Runlens upload answer (${answerKind(res)}: ${what})`);
  };
  if (!body) bad("not a JSON object");
  if (body.files !== undefined && !Array.isArray(body.files)) bad("files is not a list");
  for (const f of body.files ?? [])
    if (!f || typeof f !== "object" || !isString(f.kind) || !isString(f.name))
      bad("a file without kind or name");
  if (body.warnings !== undefined && !Array.isArray(body.warnings)) bad("warnings is not a list");
  if (body.sweep !== undefined && body.sweep !== null) {
    if (!isString(body.sweep.url)) bad("a sweep without its URL");
    if (!Array.isArray(body.runs)) bad("a sweep without its runs");
    for (const r of body.runs)
      if (!r || !isString(r.url) || !isString(r.status) || typeof r.folder !== "string")
        bad("a sweep run without URL or status");
    return;
  }
  if (!isString(body.id) || !isString(body.url)) bad("no run id or URL");
  if (!["ready", "failed", "ingesting"].includes(body.status)) bad("no run status");
}

const GATE_OUTCOMES = { pass: 0, fail: 1, unjudged: 2 };

/**
 * A gate's answer must say one outcome with its exit code (0 pass, 1 fail, 2 unjudged), its
 * reasons, and the summary asked for; anything else could not be judged (exit 2), never a pass
 * or a regression.
 */
function checkGateAnswer(res, body, format) {
  const bad = (what) => {
    throw new GateError(`the server's answer is not a Runlens gate answer (${answerKind(res)}: ${what})`);
  };
  if (!body) bad("not a JSON object");
  if (!Object.hasOwn(GATE_OUTCOMES, body.outcome)) bad("no outcome");
  if (body.exitCode !== GATE_OUTCOMES[body.outcome])
    bad(`exit code ${JSON.stringify(body.exitCode)} for ${body.outcome}`);
  if (!Array.isArray(body.reasons) || !body.reasons.every((r) => typeof r === "string")) bad("no reasons");
  if (format !== "json" && typeof body.markdown !== "string") bad("no Markdown summary");
}

/** The run's verdicts against its baseline: the summary on stdout, the gate's exit code returned. */
async function gate(base, id, opts, headers) {
  const url = new URL(`api/runs/${id}/verdicts`, base);
  url.searchParams.set("baseline", opts.baseline ?? "last");
  if (opts.failOn) url.searchParams.set("failOn", opts.failOn);
  if (opts.allowDifferent)
    url.searchParams.set("allowDifferent", opts.allowDifferent === "all" ? "1" : opts.allowDifferent);
  url.searchParams.set("format", "json");
  let res;
  try {
    res = await fetch(url, { headers });
  } catch (err) {
    throw new CliError(`cannot reach ${base.origin}: ${err.cause?.code ?? err.message}`);
  }
  const body = await jsonObject(res);
  if (!res.ok)
    throw new CliError(`verdicts failed (${res.status}): ${body?.error?.message ?? res.statusText}`);
  checkGateAnswer(res, body, opts.format);
  process.stdout.write(opts.format === "json" ? `${JSON.stringify(body, null, 2)}\n` : body.markdown);
  for (const r of body.reasons) process.stderr.write(`runlens: ${r}\n`);
  return body.exitCode;
}

const RUN_ID = /^[A-Za-z0-9_-]{8,64}$/;

/** The run's id and its server: from a run URL (…/runs/ID, or an /inference share link), or an id and --server. */
function runTarget(run, server) {
  if (RUN_ID.test(run)) return { id: run, base: baseUrl(server) };
  let url;
  try {
    url = new URL(run);
  } catch {
    throw new CliError(`not a run id or run URL: ${run}`);
  }
  const id =
    url.pathname.match(/\/runs\/([A-Za-z0-9_-]{8,64})\/?$/)?.[1] ?? url.searchParams.get("unofficialRun");
  if (!id || !RUN_ID.test(id)) throw new CliError(`no run id in ${run}`);
  const prefix = url.pathname.replace(/\/(runs\/[^/]+|inference)\/?$/, "/");
  return { id, base: server ? baseUrl(server) : new URL(prefix, url.origin) };
}

/**
 * Streams the export to a temporary file beside the target and renames it once complete, so a
 * failed download never leaves a half-written trace or report under the asked-for name.
 */
async function exportRun(opts) {
  const { id, base } = runTarget(opts.run, opts.server);
  const file = opts.what === "trace" ? "trace.json" : "report.html";
  // The token goes only to the configured server (--server, RUNLENS_SERVER), never to whatever
  // host a run URL names: reads need none, and a link is no reason to trust its host.
  const trusted = opts.server ? baseUrl(opts.server).origin : null;
  const headers = opts.token && base.origin === trusted ? { Authorization: `Bearer ${opts.token}` } : {};
  // A GET is safe to repeat: a store that answers 503 (busy) or a dropped connection gets two
  // more tries before the export gives up.
  let res;
  for (let attempt = 1; ; attempt++) {
    try {
      res = await fetch(new URL(`api/runs/${id}/${file}`, base), { headers });
      if (res.status !== 503 || attempt === 3) break;
      await res.body?.cancel();
    } catch (err) {
      if (attempt === 3)
        throw new CliError(
          `cannot reach ${base.origin}: ${err.cause?.code ?? err.cause?.message ?? err.message}`,
        );
    }
    await new Promise((r) => setTimeout(r, 500 * attempt));
  }
  if (!res.ok) {
    const e = (await res.json().catch(() => null))?.error;
    throw new CliError(
      `export failed (${res.status}${e?.code ? ` ${e.code}` : ""}): ${e?.message ?? res.statusText}`,
    );
  }
  const target = path.resolve(opts.output);
  const partial = `${target}.part-${process.pid}`;
  try {
    await pipeline(Readable.fromWeb(res.body), fs.createWriteStream(partial, { flags: "wx" }));
    fs.renameSync(partial, target);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw new CliError(`cannot write ${opts.output}: ${err.code ?? err.message}`);
  }
  const bytes = fs.statSync(target).size;
  process.stderr.write(`${opts.what} of run ${id}: ${bytes.toLocaleString("en-US")} bytes\n`);
  process.stdout.write(`${target}\n`);
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (!command || command === "-h" || command === "--help" || command === "help") {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
  }
  if (command !== "upload" && command !== "export")
    throw new CliError(
      `unknown command "${command}" (try: runlens upload <dir>, or runlens export <run> --report -o FILE)`,
    );
  const opts = command === "upload" ? parseUploadArgs(rest) : parseExportArgs(rest);
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === "export") {
    await exportRun(opts);
    return 0;
  }
  if (opts.gate && !["markdown", "json"].includes(opts.format))
    throw new GateError(`--format must be markdown or json, not ${opts.format}`);
  if (!opts.gate) return upload(opts);
  // A gate that could not judge (bad arguments, no server, a refused upload, an answer of the
  // wrong shape, any error of its own) exits 2, never 1 (a regression) or 0 (a pass).
  try {
    return await upload(opts);
  } catch (err) {
    throw err instanceof CliError
      ? new GateError(err.message)
      : new GateError(`could not judge: unexpected error: ${err?.message ?? err}`);
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
