/** Tables of sweeps (created by migration 006). */

export interface SweepsTable {
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
  /** JSON object: where the sweep came from (upload folders, aiperf's sweep export) */
  meta: string;
}

/** A run's place in its sweep; a run is in at most one sweep. */
export interface SweepRunsTable {
  run_id: string;
  sweep_id: string;
  ord: number;
}

export interface SweepTables {
  sweeps: SweepsTable;
  sweep_runs: SweepRunsTable;
}
