/**
 * PostgreSQL text cannot hold U+0000 (it refuses the whole statement), SQLite can. So that both
 * stores keep the same text and one NUL in a record cannot fail an ingest, every string bound for
 * either store has its NULs replaced by U+FFFD, the character that stands for text that could not
 * be kept. JSON text columns need nothing more: JSON.stringify writes a NUL as the escape `\u0000`.
 */
import type { CompiledQuery, Dialect } from "kysely";
import { patchedDialect } from "./patched-dialect";

export function storeText(s: string): string {
  return s.indexOf("\u0000") === -1 ? s : s.replaceAll("\u0000", "\uFFFD");
}

/** `params` with every string made storable; the same array when none needed it. */
export function storeParams<T extends readonly unknown[]>(params: T): T {
  let out: unknown[] | null = null;
  for (let i = 0; i < params.length; i++) {
    const v = params[i];
    if (typeof v !== "string" || v.indexOf("\u0000") === -1) continue;
    out ??= params.slice();
    out[i] = storeText(v);
  }
  return (out ?? params) as T;
}

function storableQuery(q: CompiledQuery): CompiledQuery {
  const parameters = storeParams(q.parameters);
  return parameters === q.parameters ? q : { ...q, parameters };
}

/**
 * `dialect` with every query's parameters made storable on their way to the database: one place
 * for the query builder, raw SQL and compiled queries alike. Connections are patched once.
 */
export function storableTextDialect(dialect: Dialect): Dialect {
  return patchedDialect(dialect, (connection) => {
    const execute = connection.executeQuery.bind(connection);
    const stream = connection.streamQuery.bind(connection);
    connection.executeQuery = (q) => execute(storableQuery(q));
    connection.streamQuery = (q, chunkSize) => stream(storableQuery(q), chunkSize);
  });
}
