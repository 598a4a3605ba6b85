// Starting the built app (bin/server.mjs, the server `npm start` runs) and headless Chromium,
// shared by the browser tests and the benchmark. Plain ESM JavaScript so both vitest and a plain `node` script can import it.
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SERVER_NODE_FLAGS } from "../../bin/node-flags.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");
export const SERVER_BIN = path.join(ROOT, "bin/server.mjs");

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/** Server output kept for error messages: the tail is what explains a failure. */
const LOG_TAIL = 200_000;

/**
 * Runs bin/server.mjs (with the V8 flags `npm start` gives it, or `nodeFlags`) on 127.0.0.1:port with `env` over the production defaults and resolves once
 * /api/health answers; rejects with the server's output if it exits or is not up within 60 s.
 * `nodeArgs` go before the script (e.g. --cpu-prof); `stopGraceMs` is how long stop() waits for
 * the exit after SIGTERM (a CPU profile is written on the way out).
 */
/**
 * A TCP port free on the loopback interface now (for a server started next). With
 * RUNLENS_E2E_PORTS="<first>-<last>" (for browser-test runs started side by side, each given a range
 * of its own below the kernel's ephemeral ports) the port is taken from that range, so two runs
 * never pick the same port between one's check and its server's listen.
 */
export async function freePort() {
  const range = /^(\d+)-(\d+)$/.exec(process.env.RUNLENS_E2E_PORTS ?? "");
  if (!range) return listenOnce(0);
  const [first, last] = [Number(range[1]), Number(range[2])];
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = first + Math.floor(Math.random() * (last - first + 1));
    try {
      return await listenOnce(port);
    } catch {
      // taken: try another
    }
  }
  throw new Error(`no free port in RUNLENS_E2E_PORTS=${process.env.RUNLENS_E2E_PORTS} after 50 tries`);
}

/** Listens on `port` (0: any) of 127.0.0.1, closes, and resolves with the port it had. */
function listenOnce(port) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(port, "127.0.0.1", () => {
      const { port: got } = srv.address();
      srv.close(() => resolve(got));
    });
    srv.on("error", reject);
  });
}

export async function startNextServer({
  port,
  env = {},
  nodeFlags = SERVER_NODE_FLAGS,
  nodeArgs = [],
  stopGraceMs = 5000,
}) {
  let output = "";
  const child = spawn(
    process.execPath,
    [...nodeFlags, ...nodeArgs, SERVER_BIN, "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const keep = (d) => (output = (output + d).slice(-LOG_TAIL));
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`app exited early:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`app did not start within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    logs: () => output,
    /** SIGTERM, then SIGKILL if it has not exited within stopGraceMs. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), stopGraceMs);
      await exited;
      clearTimeout(t);
    },
  };
}
