import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where generated test inputs are kept between files and runs (one folder per key). */
export const INPUT_CACHE = path.join(os.tmpdir(), "runlens-test-inputs");

/**
 * A generated input shared by every test file and run that asks for the same one: `produce`
 * writes it into a fresh folder and returns what describes it (JSON: paths, counts); the folder
 * is kept under INPUT_CACHE, keyed by `key` (the generator's arguments), the text of `produce`
 * and the contents of `sources` (the generator's files), so a changed generator makes a new one.
 * Paths into the folder in the result are rewritten to where it is kept. Safe when several test
 * workers ask at once: each writes its own folder and the first renamed into place wins.
 */
export async function cachedInput<T>(
  key: unknown,
  produce: (dir: string) => T | Promise<T>,
  sources: string[] = [],
): Promise<T> {
  const hash = createHash("sha256").update(JSON.stringify(key)).update(produce.toString());
  for (const file of sources) hash.update(fs.readFileSync(file));
  const dir = path.join(INPUT_CACHE, hash.digest("hex").slice(0, 20));
  const done = path.join(dir, "input.json");
  if (fs.existsSync(done)) return JSON.parse(fs.readFileSync(done, "utf8")) as T;
  fs.mkdirSync(INPUT_CACHE, { recursive: true });
  const tmp = fs.mkdtempSync(`${dir}.tmp-`);
  try {
    const described = JSON.stringify((await produce(tmp)) ?? null)
      .split(tmp)
      .join(dir);
    fs.writeFileSync(path.join(tmp, "input.json"), described);
    try {
      fs.renameSync(tmp, dir);
    } catch {
      // Another worker put the same input in place first: use that one.
    }
    return JSON.parse(fs.readFileSync(done, "utf8")) as T;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
