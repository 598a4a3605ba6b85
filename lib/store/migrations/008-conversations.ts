import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

/**
 * Conversations and turns of aiperf requests (docs/metrics.md §Turns): the conversation a request
 * belongs to and its turn within it, the prompt tokens the server said it served from cache, and
 * the prompt tokens an earlier turn of the same conversation made reusable. All nullable: a
 * single-turn run, an older aiperf or an imported tool's rows have none of them.
 */
export function conversationsMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      const columns = [
        ["conversation_id", t.text],
        ["turn_index", t.int],
        ["cached_tokens", t.int],
        ["possible_reuse_tokens", t.int],
      ] as const;
      for (const [name, type] of columns)
        await db.schema.alterTable("aiperf_requests").addColumn(name, type).execute();
    },
  };
}
