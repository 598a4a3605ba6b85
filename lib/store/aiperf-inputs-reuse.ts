/**
 * The inputs.json estimate of each stored aiperf request (docs/metrics.md §Turns, "From
 * inputs.json"). The estimate of a turn needs the whole upload (delta payloads are scaled by
 * the run's first turns), so it is stored once every file is read, whichever came first: the
 * turns' lines go into `aiperf_inputs_turns`, then one UPDATE applies each line to its requests'
 * prompt length. Neither side holds the request rows in memory, and the update reads them once.
 */
import { sql } from "kysely";
import { BatchInserter } from "./batch-insert";
import type { Db } from "./db";
import { AIPERF_INPUTS_TURN_COLUMNS } from "./tables/aiperf";

export interface InputsTurnLine {
  conversationId: string;
  turn: number;
  line: { scale: number; offset: number };
  nonText: boolean;
}

/** Stores the turns' lines and every request's estimate; returns the requests given one. */
export async function storeInputsReuse(
  db: Db,
  runId: string,
  lines: Iterable<InputsTurnLine>,
): Promise<number> {
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
  // Same arithmetic as possibleOnLine (lib/metrics/inputs-reuse.ts): ISL × scale + offset,
  // clamped to [0, ISL]; a request without a prompt length gets none (NULL in, NULL out).
  const v = sql`(aiperf_requests.input_tokens * t.isl_scale + t.token_offset)`;
  const result = await sql`update aiperf_requests set inputs_reuse_tokens =
      case when ${v} < 0 then 0 when ${v} > aiperf_requests.input_tokens then aiperf_requests.input_tokens
      else ${v} end
    from aiperf_inputs_turns t
    where aiperf_requests.run_id = ${runId} and t.run_id = ${runId}
      and t.conversation_id = aiperf_requests.conversation_id and t.turn_index = aiperf_requests.turn_index
      and aiperf_requests.input_tokens is not null`.execute(db);
  return Number(result.numAffectedRows ?? 0);
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
