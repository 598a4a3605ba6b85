/**
 * The inputs.json estimate of each stored aiperf request (docs/metrics.md §Turns, "From
 * inputs.json"). The estimate of a turn needs the whole upload (delta payloads are scaled by
 * the run's first turns), so it is stored once every file is read, whichever came first: the
 * turns' lines go into `aiperf_inputs_turns`, and the run's request file applies each line to its
 * requests' prompt length as it is written. Neither side holds the request rows in memory.
 */
import { BatchInserter } from "./batch-insert";
import type { Db } from "./db";
import { AIPERF_INPUTS_TURN_COLUMNS } from "./tables/aiperf";

export interface InputsTurnLine {
  conversationId: string;
  turn: number;
  line: { scale: number; offset: number };
  nonText: boolean;
}

/**
 * Stores the turns' lines (`aiperf_inputs_turns`), which the timeline's request detail reads;
 * each request's estimate is computed from the same lines as its Parquet file is written
 * (lib/store/columnar/aiperf-request-file.ts).
 */
export async function storeInputsTurns(
  db: Db,
  runId: string,
  lines: Iterable<InputsTurnLine>,
): Promise<void> {
  const rows = new BatchInserter(db, "aiperf_inputs_turns", AIPERF_INPUTS_TURN_COLUMNS);
  for (const l of lines) {
    const full = rows.push({
      run_id: runId,
      conversation_id: l.conversationId,
      turn_index: l.turn,
      isl_scale: l.line.scale,
      token_offset: l.line.offset,
      non_text: l.nonText ? 1 : 0,
    });
    if (full) await rows.flush();
  }
  await rows.flush();
}

/** The stored inputs.json turn of one request's conversation and turn, if any. */
export async function inputsTurnOf(db: Db, runId: string, conversationId: string, turn: number) {
  return db
    .selectFrom("aiperf_inputs_turns")
    .select(["isl_scale", "token_offset", "non_text"])
    .where("run_id", "=", runId)
    .where("conversation_id", "=", conversationId)
    .where("turn_index", "=", turn)
    .executeTakeFirst();
}
