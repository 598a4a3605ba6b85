// Runs a TypeScript file of the benchmarks in a child process through jiti (with the `@/` alias
// the sources import by), in its own temporary folder, for the benchmark scripts that time a
// phase in a fresh process.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The number after `name` on the command line, or `fallback` when it is not there. */
export function numberOption(name, fallback) {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

/**
 * Runs `file` (a path from the repository's root) with `args`, its output on this process's, and
 * `env` added to this process's environment; returns its exit status (1 when it gave none).
 */
export function runTsChild(file, args, env = {}) {
  const res = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules/jiti/lib/jiti-cli.mjs"), path.join(ROOT, file), ...args],
    {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, ...env, JITI_ALIAS: JSON.stringify({ "@": ROOT }) },
    },
  );
  return res.status ?? 1;
}

/** Runs `fn` with a new temporary folder named from `prefix`, removed after it whatever it returns. */
export async function withTempDir(prefix, fn) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
