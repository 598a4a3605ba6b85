/**
 * The check of an answer's JSON against its schema (made outside production, lib/server/http.ts),
 * in steps with a turn of the event loop between them. A big answer (a timeline window of 20,000
 * bars and 200,000 parts) parsed by zod in one piece held the server for about 100 ms.
 *
 * Why in steps, rather than a sample or a size above which the check is skipped: the check is
 * there to catch a value the encoder got wrong, and such a value sits anywhere in a long column
 * (a fractional segment index at part 180,000); a sample would miss it, and skipping would leave
 * unchecked the very answers most likely to hold it. In steps, every value is checked by the same
 * schema: the long arrays a slice at a time by their element's schema, the rest at once.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { z } from "zod";
import { parseJsonInSteps } from "@/lib/metrics/json-in-steps";
import { checkInSteps, SLICE } from "@/lib/metrics/schema-in-steps";
import { inTurns } from "@/lib/runs/in-turns";

/**
 * `schema.parse(JSON.parse(text))` in turns, the text parsed a piece a turn too
 * (lib/metrics/json-in-steps.ts): a 20,000-bar timeline window's JSON.parse alone was the
 * longest slice of its check. Throws JSON.parse's SyntaxError or the ZodError of the first slice
 * that fails.
 */
export async function parseInSteps<S extends z.ZodType>(
  schema: S,
  text: string,
  slice = SLICE,
): Promise<z.output<S>> {
  const value = await inTurns(parseJsonInSteps(text));
  await nextTurn();
  return inTurns(checkInSteps(schema, value, slice)) as Promise<z.output<S>>;
}

export { checkInSteps };
