#!/usr/bin/env node
// Serves the built app (run `next build` first; `npm start` does both). Port: `-p`/`--port`, else
// PORT, else 3000; interface: `-H`/`--hostname`, else all of them, as with `next start`.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { serve } from "./http-server.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export function listenArgs(argv, env = process.env) {
  const { values } = parseArgs({
    args: argv,
    options: { port: { type: "string", short: "p" }, hostname: { type: "string", short: "H" } },
  });
  const port = Number(values.port ?? env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`bad port: ${values.port ?? env.PORT}`);
  return { port, hostname: values.hostname };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await serve({ dir: root, ...listenArgs(process.argv.slice(2)) });
  } catch (err) {
    console.error(`[runlens] could not start: ${err.message}`);
    process.exit(1);
  }
}
