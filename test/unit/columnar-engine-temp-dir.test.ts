/**
 * The DuckDB engine configured again with another temp folder after it has spilled to its own
 * (each app context of a process configures it, a test's data dir after another's): DuckDB
 * refuses to switch ("Cannot switch temporary directory after the current one has been used"),
 * and the configuration must neither fail nor leave the engine unusable for the next run. Any
 * other failure to set the folder is the caller's: it propagates, and the engine stays.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DuckDBConnection } from "@duckdb/node-api";
import { afterAll, expect, it, vi } from "vitest";
import {
  configureColumnar,
  DEFAULT_COLUMNAR_SETTINGS,
  queryRows,
  withConnection,
} from "@/lib/store/columnar/engine";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-engine-tmp-"));
afterAll(async () => {
  await configureColumnar(DEFAULT_COLUMNAR_SETTINGS);
  fs.rmSync(dir, { recursive: true, force: true });
});

it("takes a new temp folder after the engine has spilled to the old one", async () => {
  const first = path.join(dir, "first");
  const second = path.join(dir, "second");
  await configureColumnar({ threads: 1, memoryLimit: "24MB", tempDir: first });
  // A temp table larger than the limit: DuckDB spills it to the first folder.
  const spilled = await withConnection(async (c) => {
    await c.run("create temp table big as select repeat('x', 200) || range::varchar as s from range(400000)");
    const r = await c.runAndReadAll("select sum(temporary_storage_bytes)::double as t from duckdb_memory()");
    return Number(r.getRowObjectsJson()[0].t);
  });
  expect(spilled).toBeGreaterThan(0);

  await configureColumnar({ threads: 1, memoryLimit: "64MB", tempDir: second });
  const [s] = await queryRows<{ dir: string; n: number }>(
    "select current_setting('temp_directory') as dir, (select count(*)::integer from range(10)) as n",
  );
  expect(s).toEqual({ dir: second, n: 10 });
});

it("lets any other failure to set the temp folder propagate, and keeps the engine", async () => {
  const first = path.join(dir, "third");
  await configureColumnar({ threads: 1, memoryLimit: "64MB", tempDir: first });
  const run = DuckDBConnection.prototype.run;
  const spy = vi.spyOn(DuckDBConnection.prototype, "run").mockImplementation(function (
    this: DuckDBConnection,
    ...args: Parameters<DuckDBConnection["run"]>
  ) {
    if (String(args[0]).startsWith("set temp_directory"))
      return Promise.reject(new Error("IO Error: Failed to create directory: Permission denied"));
    return run.apply(this, args);
  });
  try {
    await expect(
      configureColumnar({ threads: 1, memoryLimit: "64MB", tempDir: path.join(dir, "fourth") }),
    ).rejects.toThrow("Permission denied");
  } finally {
    spy.mockRestore();
  }
  // The engine that refused is the one still answering: its temp folder is the first.
  const [s] = await queryRows<{ dir: string }>("select current_setting('temp_directory') as dir");
  expect(s.dir).toBe(first);
});
