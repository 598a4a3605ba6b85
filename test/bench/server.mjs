// Starts the built app (`next start`) for the benchmark and samples its memory from /proc.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const NEXT_BIN = path.join(ROOT, "node_modules/next/dist/bin/next");

/** Builds into distDir unless a build is already there (the benchmark never touches `.next`). */
export function ensureBuild(distDir) {
  if (fs.existsSync(path.join(ROOT, distDir, "BUILD_ID"))) return;
  process.stderr.write(`building into ${distDir} (next build) …\n`);
  const r = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, RUNLENS_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (r.status !== 0) throw new Error("next build failed");
}

export async function startServer({ distDir, port, dataDir, databaseUrl }) {
  let output = "";
  const child = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      RUNLENS_DIST_DIR: distDir,
      DATA_DIR: dataDir,
      RUNLENS_EXAMPLES: "off",
      DATABASE_URL: databaseUrl ?? "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (d) => (output = (output + d).slice(-20_000)));
  child.stderr.on("data", (d) => (output = (output + d).slice(-20_000)));
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
    pid: child.pid,
    logs: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const t = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}

function statusKb(pid, field) {
  try {
    const m = fs
      .readFileSync(`/proc/${pid}/status`, "utf8")
      .match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** The process and every descendant (`next start` may run the server in a child process). */
function processTree(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks = [];
    try {
      tasks = fs.readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const t of tasks) {
      try {
        const kids = fs.readFileSync(`/proc/${out[i]}/task/${t}/children`, "utf8").trim();
        if (kids) out.push(...kids.split(/\s+/).map(Number));
      } catch {
        // task ended
      }
    }
  }
  return out;
}

/** Samples the resident memory of the server's process tree every `everyMs` until stopped. */
export function sampleRss(pid, everyMs = 20) {
  const tree = processTree(pid);
  const baselineBytes = tree.reduce((a, p) => a + statusKb(p, "VmRSS"), 0) * 1024;
  // Resets VmHWM so it reports the peak of this measurement only (Linux ≥ 4.0).
  for (const p of tree) {
    try {
      fs.writeFileSync(`/proc/${p}/clear_refs`, "5");
    } catch {
      // not permitted: the sampled peak still stands
    }
  }
  let peakBytes = baselineBytes;
  const timer = setInterval(() => {
    const rss = processTree(pid).reduce((a, p) => a + statusKb(p, "VmRSS"), 0) * 1024;
    if (rss > peakBytes) peakBytes = rss;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const hwmBytes = processTree(pid).reduce((a, p) => a + statusKb(p, "VmHWM"), 0) * 1024;
      return {
        baselineBytes,
        peakBytes: Math.max(peakBytes, hwmBytes),
        sampledPeakBytes: peakBytes,
        hwmBytes,
      };
    },
  };
}
