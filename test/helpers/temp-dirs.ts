import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, expect } from "vitest";

/**
 * Temporary directories for one test file, each under the OS temp dir with `prefix`: removed after
 * each test, and the file fails if one is still there once its tests are done (a test run leaves
 * none behind). Returns the function that makes one.
 */
export function useTempDirs(prefix: string): () => string {
  const made: string[] = [];
  const open: string[] = [];
  afterEach(() => {
    for (const dir of open.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => {
    expect(made.filter((dir) => fs.existsSync(dir))).toEqual([]);
  });
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(dir);
    open.push(dir);
    return dir;
  };
}
