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
import { z } from "zod";
import type { Steps } from "@/lib/metrics/steps";
import { inTurns } from "@/lib/runs/in-turns";

/** Arrays of this many elements or more are checked a slice (of as many) a step. */
const SLICE = 8192;

/** `schema.parse(JSON.parse(text))` in turns; throws the ZodError of the first slice that fails. */
export async function parseInSteps(schema: z.ZodType, text: string): Promise<void> {
  const value = JSON.parse(text) as unknown;
  await nextTurn();
  await inTurns(checkInSteps(schema, value));
}

interface LongArray {
  path: PropertyKey[];
  element: z.ZodType;
  items: unknown[];
}

/** A plain object (no checks of its own) or array (no length checks) schema, else null. */
function cuttable(schema: z.ZodType): "object" | "array" | null {
  const def = schema._zod.def as { type: string; checks?: unknown[] };
  if (def.checks && def.checks.length > 0) return null;
  if (schema instanceof z.ZodObject) return "object";
  if (schema instanceof z.ZodArray) return "array";
  return null;
}

/**
 * The value with its long arrays taken out (each replaced by an empty array), and those arrays:
 * only arrays reached through objects' fields whose schemas check nothing about the whole (no
 * refinement, no length rule), so the emptied value and the arrays' elements checked apart pass
 * exactly when the value passes.
 */
function cut(schema: z.ZodType, value: unknown, path: PropertyKey[], long: LongArray[]): unknown {
  const kind = cuttable(schema);
  if (kind === "array" && Array.isArray(value) && value.length >= SLICE) {
    long.push({ path, element: (schema as z.ZodArray<z.ZodType>).element, items: value });
    return [];
  }
  if (kind !== "object" || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of Object.keys(shape))
    if (key in out) out[key] = cut(shape[key], out[key], [...path, key], long);
  return out;
}

export function* checkInSteps(schema: z.ZodType, value: unknown): Steps<void> {
  const long: LongArray[] = [];
  schema.parse(cut(schema, value, [], long));
  for (const { path, element, items } of long) {
    const slices = z.array(element);
    for (let from = 0; from < items.length; from += SLICE) {
      yield;
      const r = slices.safeParse(items.slice(from, from + SLICE));
      if (!r.success)
        throw new z.ZodError(
          r.error.issues.map((i) => ({
            ...i,
            path: [...path, from + Number(i.path[0]), ...i.path.slice(1)],
          })),
        );
    }
  }
}
