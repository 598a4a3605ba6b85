/**
 * Real benchmark outputs that other people's tools wrote, read in place from
 * `../shared/fixtures/real-public/` beside the clone (never copied into the project). Each
 * folder's PROVENANCE.md names the producer's own numbers that a test compares with. Where the
 * folder is absent, the tests that need it are skipped with one line saying so.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";

export const REAL_PUBLIC = path.resolve(
  process.env.RUNLENS_REAL_PUBLIC ?? path.join(__dirname, "../../../shared/fixtures/real-public"),
);

/** The folder's absolute path, or null when it is not there. */
export function realPublicDir(folder: string): string | null {
  const dir = path.join(REAL_PUBLIC, folder);
  return fs.existsSync(dir) ? dir : null;
}

/** A file of a real-public folder (the folder must exist). */
export function realPublicFile(folder: string, rel: string): string {
  return path.join(REAL_PUBLIC, folder, rel);
}

/** The file's text, parsed as JSON. */
export function realPublicJson<T = unknown>(folder: string, rel: string): T {
  return JSON.parse(fs.readFileSync(realPublicFile(folder, rel), "utf8")) as T;
}

/**
 * Every file of the folder (or of `sub` inside it) as upload parts named by their path relative
 * to the folder, as a dragged folder sends them; PROVENANCE.md is left out.
 */
export function realPublicParts(folder: string, sub = ""): Array<{ name: string; path: string }> {
  const root = path.join(REAL_PUBLIC, folder);
  const start = path.join(root, sub);
  const out: Array<{ name: string; path: string }> = [];
  const walk = (dir: string) => {
    for (const e of fs
      .readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name !== "PROVENANCE.md")
        out.push({ name: path.relative(root, p).split(path.sep).join("/"), path: p });
    }
  };
  walk(start);
  return out;
}

/**
 * `describe` over one real-public folder; skipped, with one line naming what is missing, when
 * `../shared/fixtures/real-public/<folder>` is absent.
 */
export function describeRealPublic(folder: string, fn: (dir: string) => void): void {
  const dir = realPublicDir(folder);
  if (!dir) {
    describe.skip(`real-public/${folder}`, () => {
      it(`skipped: ${path.join(REAL_PUBLIC, folder)} is absent`, () => {});
    });
    return;
  }
  describe(`real-public/${folder}`, () => fn(dir));
}
