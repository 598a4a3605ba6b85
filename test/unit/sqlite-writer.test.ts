/**
 * The SQLite writer thread: batches commit in the order they were sent, on the same database
 * file the app reads, and a failing batch reports SQLite's error code to the producer.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { migrate, openSqlite, type DbHandle } from "@/lib/store/db";
import { sqliteWriterFor, WriteQueue, type Statement } from "@/lib/store/sqlite-writer";

let handle: DbHandle | null = null;
let dir: string | null = null;
afterEach(async () => {
  await handle?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  handle = null;
  dir = null;
});

async function store(): Promise<DbHandle> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-writer-"));
  handle = openSqlite(path.join(dir, "runlens.sqlite"));
  await migrate(handle);
  return handle;
}

const INSERT = "insert into run_labels (run_id, label) values (?, ?), (?, ?)";

describe("SQLite writer thread", () => {
  it("commits batches in order on the app's database file", async () => {
    const { db } = await store();
    const writer = sqliteWriterFor(db);
    expect(writer).not.toBeNull();
    const queue = new WriteQueue(writer!, 2);
    for (let i = 0; i < 50; i++) {
      const batch: Statement[] = [[INSERT, [`r${i}`, "a", `r${i}`, "b"]]];
      await queue.send(batch);
    }
    await queue.drain();
    const rows = await db.selectFrom("run_labels").select(["run_id", "label"]).execute();
    expect(rows.length).toBe(100);
    expect(rows.slice(0, 4)).toEqual([
      { run_id: "r0", label: "a" },
      { run_id: "r0", label: "b" },
      { run_id: "r1", label: "a" },
      { run_id: "r1", label: "b" },
    ]);
  });

  it("a failing batch rolls back whole and rejects with SQLite's code", async () => {
    const { db } = await store();
    const queue = new WriteQueue(sqliteWriterFor(db)!, 1);
    const bad: Statement[] = [
      [INSERT, ["x", "a", "x", "b"]],
      ["insert into no_such_table (a) values (?)", [1]],
    ];
    await queue.send(bad);
    await expect(queue.drain()).rejects.toMatchObject({ code: "SQLITE_ERROR" });
    expect(await db.selectFrom("run_labels").selectAll().execute()).toEqual([]);
    // The thread goes on serving later batches.
    await queue.send([[INSERT, ["y", "a", "y", "b"]]]);
    await queue.drain();
    expect((await db.selectFrom("run_labels").selectAll().execute()).length).toBe(2);
  });

  it("in-memory stores write inline", async () => {
    handle = openSqlite(":memory:");
    expect(sqliteWriterFor(handle.db)).toBeNull();
  });
});
