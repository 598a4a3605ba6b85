// Starts the built app (bin/server.mjs, as `npm start` does) for the benchmark and samples its memory from /proc.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { NEXT_BIN, ROOT, startNextServer } from "../helpers/next-server.mjs";

export { ROOT };

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

/** `cpuProfDir`: the server (and each of its threads) writes a .cpuprofile there when it stops. */
export async function startServer({
  distDir,
  port,
  dataDir,
  databaseUrl,
  nodeFlags,
  warmUp,
  cpuProfDir = null,
}) {
  const server = await startNextServer({
    port,
    nodeFlags,
    ...(cpuProfDir ? { nodeArgs: ["--cpu-prof", "--cpu-prof-dir", cpuProfDir], stopGraceMs: 60_000 } : {}),
    env: {
      ...(warmUp ? { RUNLENS_WARM_UP: warmUp } : {}),
      RUNLENS_DIST_DIR: distDir,
      DATA_DIR: dataDir,
      RUNLENS_EXAMPLES: "off",
      // The large server-metrics JSON (2.6 GB) is past the default 2 GiB body limit.
      RUNLENS_MAX_UPLOAD_BYTES: String(8 * 2 ** 30),
      DATABASE_URL: databaseUrl ?? "",
    },
  });
  return { url: server.url, pid: server.child.pid, logs: server.logs, stop: server.stop };
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

/** The process and every descendant (should the server ever run work in a child process). */
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
