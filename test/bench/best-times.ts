// The minimum wall time and process CPU (every thread) of each named step over a bench's repeats,
// and the table that prints them (test/bench/aiperf-native-passes.ts, aiperf-summary-path.ts).
import os from "node:os";

type Took = { wall: number; cpu: number };

export class BestTimes {
  readonly best = new Map<string, Took>();

  /** Notes the step `name` that started at process CPU `c0` and `performance.now()` `t0`. */
  note(name: string, c0: NodeJS.CpuUsage, t0: number): void {
    const wall = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    const b = this.best.get(name);
    this.best.set(name, {
      wall: Math.min(b?.wall ?? Infinity, wall),
      cpu: Math.min(b?.cpu ?? Infinity, cpu),
    });
  }

  /** Runs `fn` as the step `name`. */
  async timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await fn();
    this.note(name, c0, t0);
    return r;
  }

  /** Prints each step's minimum and the machine's load. */
  print(input: string, repeat: number): void {
    console.log(`input ${input}, ${repeat} runs, minimum of each (wall s / CPU s, all threads):`);
    for (const [k, v] of this.best)
      console.log(`${k.padEnd(32)} ${v.wall.toFixed(2).padStart(6)}  ${v.cpu.toFixed(2).padStart(6)}`);
    console.log(
      `load: ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
    );
  }
}
