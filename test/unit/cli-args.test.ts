import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const CLI = path.resolve(__dirname, "../../bin/runlens.mjs");

/** Runs the CLI without any server: every case here fails, or answers, before reaching one. */
async function cli(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" } as NodeJS.ProcessEnv,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe("runlens arguments", () => {
  it.each([
    [["upload", "dir", "--bogus"], "runlens: unknown option --bogus"],
    [["upload", "-x", "dir"], "runlens: unknown option -x"],
    [
      ["export", "-2bcdefghijklmnopqrstu", "--report", "-o", "x.html"],
      'runlens: unknown option -2bcdefghijklmnopqrstu; a run id that begins with "-" goes after "--" (runlens export -- -2bcdefghijklmnopqrstu ...)',
    ],
    [
      ["export", "--report", "-o", "x.html", "--", "-2bcdefghijklmnopqrstu"],
      "runlens: no server: pass --server URL or set RUNLENS_SERVER",
    ],
    [["upload", "dir", "--server"], "runlens: --server needs a value"],
    // The gate accepts named differences: a bare flag would accept nothing the user named.
    [
      ["upload", "dir", "--baseline", "last", "--allow-different"],
      "runlens: --allow-different needs a value",
    ],
    [["upload", "dir", "--server=http://127.0.0.1:9", "--token"], "runlens: --token needs a value"],
    [["upload", "--help=yes"], "runlens: --help takes no value"],
    [["upload", "--server", "http://127.0.0.1:9"], "runlens: nothing to upload: give a folder or files"],
    [["upload", "dir", "--server", "not a url"], "runlens: not a URL: not a url"],
    [
      ["deploy"],
      'runlens: unknown command "deploy" (try: runlens upload <dir>, or runlens export <run> --report -o FILE)',
    ],
    [["export", "AAAAAAAAAAAA", "-o", "x.html"], "runlens: choose one of --trace or --report"],
    [
      ["export", "AAAAAAAAAAAA", "--trace", "--report", "-o", "x"],
      "runlens: choose one of --trace or --report",
    ],
    [["export", "AAAAAAAAAAAA", "--report"], "runlens: no output file: pass -o FILE"],
    [["export", "--report", "-o", "x.html"], "runlens: give one run: its id or its URL"],
    [
      ["export", "AAAAAAAAAAAA", "--report", "-o", "x.html"],
      "runlens: no server: pass --server URL or set RUNLENS_SERVER",
    ],
    [["export", "not a run", "--report", "-o", "x.html"], "runlens: not a run id or run URL: not a run"],
    [
      ["export", "http://127.0.0.1:9/compare", "--trace", "-o", "x"],
      "runlens: no run id in http://127.0.0.1:9/compare",
    ],
    [["export", "AAAAAAAAAAAA", "--trace=yes", "-o", "x"], "runlens: --trace takes no value"],
  ])("%j fails with one line", async (args, message) => {
    const res = await cli(args);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe("");
    expect(res.stderr).toBe(`${message}\n`);
  });

  it("prints the usage for help, and exits 2 when given nothing", async () => {
    for (const args of [["--help"], ["help"], ["upload", "-h"], ["upload", "dir", "--help"]]) {
      const res = await cli(args);
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^usage: runlens upload <dir\|files…> \[--server URL\] \[--name NAME\]/);
    }
    const bare = await cli([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toMatch(/^usage: runlens upload/);
  });

  it("the last of a repeated option wins, and the equals form works", async () => {
    const res = await cli(["upload", "dir", "--server=first", "--server", "second"]);
    expect(res.stderr).toBe("runlens: not a URL: second\n");
  });
});
