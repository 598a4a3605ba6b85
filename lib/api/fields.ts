/** Small builders for the fields most payloads repeat, so a schema lists only what is particular to it. */
import { z } from "zod";

/** One `number | null` field per key (null = not recorded, never 0). */
export function nullableNumbers<const K extends string>(
  ...keys: K[]
): { [P in K]: z.ZodNullable<z.ZodNumber> } {
  return numberFields(keys);
}

function numberFields<const K extends string>(keys: K[]): { [P in K]: z.ZodNullable<z.ZodNumber> } {
  return Object.fromEntries(keys.map((k) => [k, z.number().nullable()])) as {
    [P in K]: z.ZodNullable<z.ZodNumber>;
  };
}

/** One `string | null` field per key. */
export function nullableStrings<const K extends string>(
  ...keys: K[]
): { [P in K]: z.ZodNullable<z.ZodString> } {
  return Object.fromEntries(keys.map((k) => [k, z.string().nullable()])) as {
    [P in K]: z.ZodNullable<z.ZodString>;
  };
}

/** A time series' points: seconds from the run's start, then the given values (null = not recorded). */
export function timePoints<const K extends string>(...keys: K[]) {
  return z.array(z.object({ tS: z.number(), ...numberFields(keys) }));
}
