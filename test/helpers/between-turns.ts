/**
 * Work counted between two turns of the event loop while an upload is ingested (issue 31's "no
 * read or ingest holds the server"): a test spies on the call it counts (a sort, a DuckDB row, a
 * JSON.parse), adds to the current turn's tally from the spy, and reads the most any one turn saw.
 * Counted, never timed, so the bound holds on a loaded machine.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { uploadRun } from "./test-app";

export interface TurnTally<K extends string> {
  /** Adds `n` to this turn's count of `key`. */
  add(key: K, n?: number): void;
  /** Stops counting; the most of each key seen in one turn. */
  stop(): Record<K, number>;
}

/** Starts counting `keys` per turn of the event loop (one `setImmediate` a turn). */
export function tallyPerTurn<K extends string>(...keys: K[]): TurnTally<K> {
  const now = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  const most = { ...now };
  let running = true;
  const tick = () => {
    for (const k of keys) {
      most[k] = Math.max(most[k], now[k]);
      now[k] = 0;
    }
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    add(key, n = 1) {
      now[key] += n;
    },
    stop() {
      running = false;
      tick();
      return { ...most };
    },
  };
}

/**
 * Generates an upload's files in a fresh temp dir, then uploads them through POST /api/runs with a
 * tally started only once the files are written (a generator's own work is not counted); the most
 * of each key in one turn. The dir is removed afterwards.
 */
export async function tallyUpload<K extends string>(
  prefix: string,
  generate: (dir: string) => Promise<Array<{ name: string; path: string }>>,
  start: () => TurnTally<K>,
): Promise<Record<K, number>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    const files = await generate(dir);
    const tally = start();
    try {
      await uploadRun(files);
    } catch (e) {
      tally.stop();
      throw e;
    }
    return tally.stop();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
