/** Column types and small SQL differences between the two dialects, in one place. */
export type DialectName = "sqlite" | "postgres";

export function columnTypes(dialect: DialectName) {
  return {
    /** 64-bit integer (epoch ms, byte counts): SQLite INTEGER is already 64-bit. */
    bigint: dialect === "postgres" ? ("bigint" as const) : ("integer" as const),
    int: "integer" as const,
    real: dialect === "postgres" ? ("double precision" as const) : ("real" as const),
    text: "text" as const,
    bytes: dialect === "postgres" ? ("bytea" as const) : ("blob" as const),
  };
}
