import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * Conversations and turns of aiperf requests (docs/metrics.md §Turns): the conversation a request
 * belongs to and its turn within it, the prompt tokens the server said it served from cache, and
 * the prompt tokens an earlier turn of the same conversation made reusable. All nullable: a
 * single-turn run, an older aiperf or an imported tool's rows have none of them.
 */
export function conversationsMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ t, addColumn }) => {
    const columns = [
      ["conversation_id", t.text],
      ["turn_index", t.int],
      ["cached_tokens", t.int],
      ["possible_reuse_tokens", t.int],
    ] as const;
    for (const [name, type] of columns) await addColumn("aiperf_requests", name, type);
  });
}
