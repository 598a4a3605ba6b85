/**
 * The main thread's CPU during a read, cut where the event loop took a turn (the read-yields
 * tests, test/api/read-yields.test.ts and test/api/trtllm-read-yields.test.ts). Not a timing: a
 * read that holds the loop shows as one long slice of CPU however fast or loaded the machine; a
 * read that yields shows as many turns and short slices, however long it takes. The CPU is the
 * main thread's (the database's, DuckDB's and the collector's threads do not hold the loop).
 */
import fs from "node:fs";
import v8 from "node:v8";
import vm from "node:vm";

/**
 * The main thread's CPU time in ms: its run time as the Linux scheduler counts it (the first
 * field of its schedstat, in ns); elsewhere the process's CPU time.
 */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
const mainThreadCpuMs = fs.existsSync(SCHEDSTAT)
  ? () => Number(fs.readFileSync(SCHEDSTAT, "utf8").split(" ")[0]) / 1e6
  : () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };

/** A full garbage collection, so an earlier step's garbage is not collected inside a read. */
export function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

export interface Sliced {
  status: number;
  /** Turns of the event loop the probe saw during the read */
  turns: number;
  /** The most main-thread CPU (ms) between two of them */
  slice: number;
  /** The main thread's CPU (ms) over the whole read */
  whole: number;
}

export interface CpuSlices {
  /** Notes the CPU up to now and stops the probe: what it saw from its start */
  stop(): Omit<Sliced, "status">;
}

/**
 * Starts a timer probe that notes each turn of the event loop and the main thread's CPU time at
 * it, until `stop()`.
 */
export function cpuSlices(): CpuSlices {
  let turns = 0;
  let slice = 0;
  const start = mainThreadCpuMs();
  let last = start;
  let running = true;
  const note = () => {
    const now = mainThreadCpuMs();
    slice = Math.max(slice, now - last);
    last = now;
  };
  const tick = () => {
    if (!running) return;
    note();
    turns++;
    setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  return {
    stop() {
      if (running) note();
      running = false;
      return { turns, slice, whole: last - start };
    },
  };
}

/** Runs `read` to the end of its body under a `cpuSlices` probe. */
export async function sliced(read: () => Promise<Response>): Promise<Sliced> {
  const probe = cpuSlices();
  try {
    const res = await read();
    await res.arrayBuffer();
    return { status: res.status, ...probe.stop() };
  } finally {
    probe.stop();
  }
}
