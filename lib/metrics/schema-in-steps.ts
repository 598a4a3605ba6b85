/**
 * A zod schema's check of a value in steps (./steps.ts): the value's long arrays a slice a step
 * by their element's schema, the rest at once; the same output as one `schema.parse`, or the
 * same issues thrown. Used by lib/server/parse-in-steps.ts (answers checked outside production)
 * and lib/runs/request-journey.ts (the stored Dynamo spans).
 */
import { z } from "zod";
import type { Steps } from "./steps";

/** Arrays of this many elements or more are checked a slice (of as many) a step. */
export const SLICE = 8192;

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
function cut(
  schema: z.ZodType,
  value: unknown,
  path: PropertyKey[],
  long: LongArray[],
  slice: number,
): unknown {
  const kind = cuttable(schema);
  if (kind === "array" && Array.isArray(value) && value.length >= slice) {
    long.push({ path, element: (schema as z.ZodArray<z.ZodType>).element, items: value });
    return [];
  }
  if (kind !== "object" || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const key of Object.keys(shape))
    if (key in out) out[key] = cut(shape[key], out[key], [...path, key], long, slice);
  return out;
}

/**
 * `schema.parse(value)` in steps: the same output, or the same issues thrown. `slice`: elements
 * of a long array checked a step (fewer for elements that are themselves big, as a request's spans).
 */
export function* checkInSteps(schema: z.ZodType, value: unknown, slice = SLICE): Steps<unknown> {
  const long: LongArray[] = [];
  const out = schema.parse(cut(schema, value, [], long, slice)) as unknown;
  for (const { path, element, items } of long) {
    const slices = z.array(element);
    const parsed: unknown[] = [];
    for (let from = 0; from < items.length; from += slice) {
      yield;
      const r = slices.safeParse(items.slice(from, from + slice));
      if (!r.success)
        throw new z.ZodError(
          r.error.issues.map((i) => ({
            ...i,
            path: [...path, from + Number(i.path[0]), ...i.path.slice(1)],
          })),
        );
      for (const v of r.data) parsed.push(v);
    }
    // The emptied array's place in the output: reached through plain objects' fields (cut).
    let at = out as Record<PropertyKey, unknown>;
    for (const key of path.slice(0, -1)) at = at[key] as Record<PropertyKey, unknown>;
    if (path.length === 0) return parsed;
    at[path[path.length - 1]] = parsed;
  }
  return out;
}
