import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildIsCurrent, sourcesHash, stampBuild } from "../../bin/build-stamp.mjs";

let root: string;
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-stamp-"));
  write("app/page.tsx", "export default 1;");
  write("lib/a.ts", "export const a = 1;");
  write("package-lock.json", "{}");
  write("next.config.ts", "export default {};");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("npm start's build check", () => {
  it("the hash follows every build input and nothing else", () => {
    const h = sourcesHash(root, {});
    expect(sourcesHash(root, {})).toBe(h);
    write("test/x.test.ts", "changed");
    write("README.md", "changed");
    write("next-env.d.ts", "rewritten by every build");
    expect(sourcesHash(root, { RUNLENS_EXAMPLES: "off" })).toBe(h);

    for (const [rel, text] of [
      ["lib/a.ts", "export const a = 2;"],
      ["lib/b/new.ts", "export {};"],
      ["public/logo.svg", "<svg/>"],
      ["package-lock.json", '{"v":2}'],
      ["tsconfig.json", "{}"],
      ["postcss.config.mjs", "export default {};"],
    ]) {
      const before = sourcesHash(root, {});
      write(rel, text);
      expect(sourcesHash(root, {}), rel).not.toBe(before);
    }
    const before = sourcesHash(root, {});
    fs.renameSync(path.join(root, "lib/a.ts"), path.join(root, "lib/c.ts"));
    expect(sourcesHash(root, {})).not.toBe(before);
    expect(sourcesHash(root, { NEXT_PUBLIC_X: "1" })).not.toBe(sourcesHash(root, {}));
  });

  it("rebuilds when the build is missing, unstamped, unfinished or from other sources", () => {
    const h = sourcesHash(root, {});
    expect(buildIsCurrent(root, ".next", h)).toBe(false);
    write(".next/BUILD_ID", "abc");
    expect(buildIsCurrent(root, ".next", h)).toBe(false);
    stampBuild(root, ".next", h);
    expect(buildIsCurrent(root, ".next", h)).toBe(true);
    expect(buildIsCurrent(root, ".next-other", h)).toBe(false);
    write("lib/a.ts", "export const a = 3;");
    expect(buildIsCurrent(root, ".next", sourcesHash(root, {}))).toBe(false);
    fs.rmSync(path.join(root, ".next/BUILD_ID"));
    expect(buildIsCurrent(root, ".next", h)).toBe(false);
  });
});
