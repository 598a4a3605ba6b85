#!/usr/bin/env node
// `npm start`: build only when the sources changed since the last build, then serve the app
// (bin/server.mjs). Arguments are passed on to it (e.g. `npm start -- -p 3001`).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildIsCurrent, sourcesHash, stampBuild } from "./build-stamp.mjs";
import { serve } from "./http-server.mjs";
import { listenArgs } from "./server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const NEXT = path.join(root, "node_modules/next/dist/bin/next");
const distDir = process.env.RUNLENS_DIST_DIR || ".next";

// Checked before a build that may take minutes.
const listen = listenArgs(process.argv.slice(2));
const hash = sourcesHash(root);
if (buildIsCurrent(root, distDir, hash)) {
  console.log(`[runlens] the build in ${distDir} matches the sources; not rebuilding`);
} else {
  const build = spawnSync(process.execPath, [NEXT, "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // Hashed before building: an edit made during the build makes the next start build again.
  stampBuild(root, distDir, hash);
}

try {
  await serve({ dir: root, ...listen });
} catch (err) {
  console.error(`[runlens] could not start: ${err.message}`);
  process.exit(1);
}
