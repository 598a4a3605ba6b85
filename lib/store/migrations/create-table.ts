import type { CreateTableBuilder, Kysely } from "kysely";
import type { columnTypes } from "../dialect";

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
