import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The CLI's entry (bin/runlens.mjs). */
export const CLI = path.resolve(__dirname, "../../bin/runlens.mjs");

/**
 * Runs the CLI in a child process with only PATH, NODE_ENV=production and `env` set; resolves
 * with its exit code and output, whatever the code.
 */
export async function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production", ...env } as NodeJS.ProcessEnv,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
