#!/usr/bin/env node
// `npm start`: build only when the sources changed since the last build, then `next start`.
// Arguments are passed on to `next start` (e.g. `npm start -- -p 3001`).
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIsCurrent, sourcesHash, stampBuild } from "./build-stamp.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NEXT = path.join(root, "node_modules/next/dist/bin/next");
const distDir = process.env.RUNLENS_DIST_DIR || ".next";

const hash = sourcesHash(root);
if (buildIsCurrent(root, distDir, hash)) {
  console.log(`[runlens] the build in ${distDir} matches the sources; not rebuilding`);
} else {
  const build = spawnSync(process.execPath, [NEXT, "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // Hashed before building: an edit made during the build makes the next start build again.
  stampBuild(root, distDir, hash);
}

const server = spawn(process.execPath, [NEXT, "start", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
