import type { Db } from "./db";
import type { Database } from "./schema";

/** Bind parameters per statement stay under both SQLite's (32,766) and PostgreSQL's (65,535) limits. */
const MAX_PARAMS = 30_000;

/**
 * Buffers rows and writes them as multi-row INSERTs of bounded size, so ingest issues a few
 * thousand statements for a million rows instead of a million.
 */
export class BatchInserter<T extends keyof Database & string> {
  private rows: Record<string, unknown>[] = [];
  private readonly batchRows: number;
  inserted = 0;

  constructor(
    private readonly db: Db,
    private readonly table: T,
    columnsPerRow: number,
    maxRows = 1000,
  ) {
    this.batchRows = Math.max(1, Math.min(maxRows, Math.floor(MAX_PARAMS / Math.max(1, columnsPerRow))));
  }

  async add(row: Database[T]): Promise<void> {
    this.rows.push(row as unknown as Record<string, unknown>);
    if (this.rows.length >= this.batchRows) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await this.db
      .insertInto(this.table)
      .values(rows as any)
      .execute();
    this.inserted += rows.length;
  }
}
