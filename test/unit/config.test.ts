/** Settings come from the environment the caller passes (the bench and tests pass their own). */
import { afterEach, describe, expect, it } from "vitest";
import { readConfig } from "@/lib/server/config";

const GiB = 1024 ** 3;
const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;

describe("readConfig", () => {
  const saved = process.env.RUNLENS_MAX_UPLOAD_BYTES;
  afterEach(() => {
    if (saved === undefined) delete process.env.RUNLENS_MAX_UPLOAD_BYTES;
    else process.env.RUNLENS_MAX_UPLOAD_BYTES = saved;
  });

  it("reads every number from the env it is given, not from process.env", () => {
    delete process.env.RUNLENS_MAX_UPLOAD_BYTES;
    const c = readConfig(env({ RUNLENS_MAX_UPLOAD_BYTES: String(8 * GiB), RUNLENS_MAX_LINE_BYTES: "1024" }));
    expect(c.maxUploadBytes).toBe(8 * GiB);
    expect(c.maxLineBytes).toBe(1024);
    process.env.RUNLENS_MAX_UPLOAD_BYTES = "5";
    expect(readConfig(env({})).maxUploadBytes).toBe(2 * GiB);
  });

  it("falls back on a value that is not a positive number", () => {
    expect(readConfig(env({ RUNLENS_MAX_UPLOAD_BYTES: "-3" })).maxUploadBytes).toBe(2 * GiB);
    expect(readConfig(env({ RUNLENS_MAX_UPLOAD_BYTES: "lots" })).maxUploadBytes).toBe(2 * GiB);
  });
});
