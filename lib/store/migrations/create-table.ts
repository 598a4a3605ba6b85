import type { CreateTableBuilder, Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

type ColumnTypes = ReturnType<typeof columnTypes>;

/**
 * Creates a table from a column list written like SQL: `name type` pairs separated by commas,
 * `!` after the type for NOT NULL, `pk` after it for a one-column primary key. A composite key
 * is given apart and named `<table>_pk`. Column order is the list's.
 */
export async function createTable(
  db: Kysely<unknown>,
  t: ColumnTypes,
  table: string,
  columns: string,
  primaryKey?: string[],
): Promise<void> {
  // Column names are only known at run time, which the builder's typed chain cannot follow.
  let builder: CreateTableBuilder<string, string> = db.schema.createTable(table);
  for (const spec of columns
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean)) {
    const [name, rawType, flag] = spec.split(/\s+/);
    const notNull = rawType.endsWith("!");
    const type = (notNull ? rawType.slice(0, -1) : rawType) as keyof ColumnTypes;
    if (!(type in t)) throw new Error(`${table}.${name}: unknown column type ${rawType}`);
    builder = builder.addColumn(name, t[type], (c) =>
      flag === "pk" ? c.primaryKey() : notNull ? c.notNull() : c,
    );
  }
  if (primaryKey) builder = builder.addPrimaryKeyConstraint(`${table}_pk`, primaryKey);
  await builder.execute();
}

/** What a migration's steps are written with: its database, the dialect's types and the usual DDL. */
export interface SchemaSteps {
  db: Kysely<unknown>;
  t: ColumnTypes;
  /** createTable (above) on this database */
  table(name: string, columns: string, primaryKey?: string[]): Promise<void>;
  /** `create index <name> on <table> (<columns>)` */
  index(name: string, table: string, columns: string[]): Promise<void>;
  /** `alter table <table> add column <name> <type>`, nullable */
  addColumn(table: string, name: string, type: ColumnTypes[keyof ColumnTypes]): Promise<void>;
}

/**
 * A migration for one dialect, its steps given the database and the dialect's column types. The
 * statements are those the steps would write by hand (test/unit/migrations-sql.test.ts pins every
 * shipped migration's SQL to the byte).
 */
export function schemaMigration(dialect: DialectName, up: (steps: SchemaSteps) => Promise<void>): Migration {
  const t = columnTypes(dialect);
  return {
    up: (db: Kysely<unknown>) =>
      up({
        db,
        t,
        table: (name, columns, primaryKey) => createTable(db, t, name, columns, primaryKey),
        index: (name, table, columns) => db.schema.createIndex(name).on(table).columns(columns).execute(),
        addColumn: (table, name, type) => db.schema.alterTable(table).addColumn(name, type).execute(),
      }),
  };
}
