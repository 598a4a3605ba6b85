/** A run's columnar files (created by ../migrations/018-run-column-files.ts). */

/** One Parquet file of a run, kept as a blob: `name` says what it holds (`aiperf-requests`). */
export interface RunColumnFilesTable {
  run_id: string;
  name: string;
  sha256: string;
  rows: number;
  /** Size of the Parquet file */
  bytes: number;
}

export interface RunColumnFilesTables {
  run_column_files: RunColumnFilesTable;
}
