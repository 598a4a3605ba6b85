// Loaded into the server and each of its worker threads with
// NODE_OPTIONS=--import=<this file> by test/bench/memory-breakdown.mjs, never by the app: every
// 20 ms it notes the thread's V8 heap (used / committed), its external and ArrayBuffer memory,
// and writes the timeline to RUNLENS_MEMORY_PROBE_DIR so the harness can read each thread's share
// at the moment the process's RSS peaked.
import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import workerThreads from "node:worker_threads";

const dir = process.env.RUNLENS_MEMORY_PROBE_DIR;
if (dir) {
  const { threadId, isMainThread } = workerThreads;
  const file = path.join(dir, `${process.pid}-${threadId}.json`);
  const scripts = [];
  if (isMainThread) {
    // Names each worker thread by its script.
    const Base = workerThreads.Worker;
    workerThreads.Worker = class extends Base {
      constructor(script, options) {
        super(script, options);
        scripts.push({ threadId: this.threadId, script: String(script) });
      }
    };
  }
  const samples = [];
  const sample = () => {
    const h = v8.getHeapStatistics();
    const m = process.memoryUsage();
    // The last 40 s: an upload's peak, without growing for the server's whole life.
    if (samples.length >= 2000) samples.splice(0, 500);
    samples.push([
      Date.now(),
      h.used_heap_size,
      h.total_physical_size,
      m.external,
      m.arrayBuffers,
      h.malloced_memory,
    ]);
  };
  const flush = () => {
    try {
      fs.writeFileSync(file, JSON.stringify({ threadId, isMainThread, scripts, samples }));
    } catch {
      // the folder is gone: the harness has finished
    }
  };
  setInterval(sample, 20).unref();
  setInterval(flush, 1000).unref();
  process.on("exit", flush);
}
