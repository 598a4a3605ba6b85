import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * The possible reuse estimated from aiperf's inputs.json, per request (docs/metrics.md §Turns,
 * "From inputs.json"): `aiperf_inputs_turns` keeps each turn's estimate as a line in the
 * request's prompt length (`isl_scale × ISL + token_offset`) and whether its payload had parts
 * the estimate does not count (images, audio, video); `aiperf_requests.inputs_reuse_tokens` is
 * the estimate of each request, beside the records' own `possible_reuse_tokens`. Null on a run
 * without inputs.json and on one stored before this migration.
 */
export function inputsReuseMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ t, table, addColumn }) => {
    await addColumn("aiperf_requests", "inputs_reuse_tokens", t.real);
    await table(
      "aiperf_inputs_turns",
      "run_id text!, conversation_id text!, turn_index int!, isl_scale real!, token_offset real!, non_text int!",
      ["run_id", "conversation_id", "turn_index"],
    );
  });
}
