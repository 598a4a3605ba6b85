// The built app and Chromium for a screenshot script: the app (`npm start`'s server, from the
// build in RUNLENS_DIST_DIR or .next) on a free port and a temporary data directory of its own,
// both stopped and the directory removed when the script is done or interrupted (Ctrl-C).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort, startNextServer } from "../helpers/next-server.mjs";

/**
 * Starts the app (with the example runs when `examples`) and Chromium, runs `fn(server, browser)`
 * and stops both; resolves with what `fn` resolves with.
 */
export async function withAppAndBrowser({ prefix, examples }, fn) {
  const distDir = process.env.RUNLENS_DIST_DIR || ".next";
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const server = await startNextServer({
    port: await freePort(),
    env: {
      DATA_DIR: dataDir,
      RUNLENS_EXAMPLES: examples ? "on" : "off",
      DATABASE_URL: "",
      RUNLENS_DIST_DIR: distDir,
    },
  });
  // Interrupted (Ctrl-C), the app it started must not outlive it.
  for (const signal of ["SIGINT", "SIGTERM"])
    process.once(signal, () => {
      server.child.kill("SIGKILL");
      fs.rmSync(dataDir, { recursive: true, force: true });
      process.exit(130);
    });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    return await fn(server, browser);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
