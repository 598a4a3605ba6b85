/**
 * The SQL every shipped migration emits, on SQLite and on PostgreSQL, to the byte: a migration
 * that has run on a database must never change its effect, however its code is written. The
 * statements are compiled by Kysely's own adapters (no database), in the order the migration
 * runs them, and compared with test/fixtures/migrations-sql.txt.
 */
import fs from "node:fs";
import path from "node:path";
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Dialect,
} from "kysely";
import { describe, expect, it } from "vitest";
import type { DialectName } from "@/lib/store/dialect";
import { allMigrations } from "@/lib/store/migrations";

const EXPECTED = path.join(__dirname, "../fixtures/migrations-sql.txt");

function compileOnly(dialect: DialectName): Dialect {
  const pg = dialect === "postgres";
  return {
    createAdapter: () => (pg ? new PostgresAdapter() : new SqliteAdapter()),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => (pg ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
    createQueryCompiler: () => (pg ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
  };
}

/** Every migration's statements, one per line under a `-- <dialect> <migration>` heading. */
async function emitted(): Promise<string> {
  const out: string[] = [];
  for (const dialect of ["sqlite", "postgres"] as const) {
    const statements: string[] = [];
    const db = new Kysely<unknown>({
      dialect: compileOnly(dialect),
      log: (e) => {
        statements.push(
          `${e.query.sql}${e.query.parameters.length ? ` -- ${JSON.stringify(e.query.parameters)}` : ""}`,
        );
      },
    });
    for (const [name, migration] of Object.entries(allMigrations(dialect))) {
      statements.length = 0;
      await migration.up(db);
      out.push(`-- ${dialect} ${name}`, ...statements);
    }
    await db.destroy();
  }
  return out.join("\n") + "\n";
}

describe("shipped migrations", () => {
  it("emit the same SQL, statement by statement, on both dialects", async () => {
    const sql = await emitted();
    if (process.env.RUNLENS_WRITE_MIGRATIONS_SQL === "1") fs.writeFileSync(EXPECTED, sql);
    expect(sql).toBe(fs.readFileSync(EXPECTED, "utf8"));
  });
});
