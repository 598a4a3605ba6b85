import { createLoader, parseAsNativeArrayOf, parseAsString } from "nuqs/server";
import { compareHref } from "@/components/compare/search-params";
import { runHref } from "@/components/run/search-params";
import { runsHref } from "@/components/runs/search-params";

/**
 * URL state of `/inference`, the InferenceX-style share link: `?unofficialRun=ID` or
 * `?unofficialruns=ID1,ID2`, repeated or comma-separated, the name in any case (names are
 * lower-cased before parsing).
 */
export const shareLinkSearchParams = {
  unofficialrun: parseAsNativeArrayOf(parseAsString),
  unofficialruns: parseAsNativeArrayOf(parseAsString),
};

const loadShareLink = createLoader(shareLinkSearchParams);

/**
 * Where a share link leads: one id opens the run, several open the comparison. The target is
 * written by that route's own serializer, so it reads back exactly as the page parses it.
 */
export function resolveShareLink(params: Record<string, string | string[] | undefined>): string {
  const byName: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(params))
    if (value !== undefined) (byName[key.toLowerCase()] ??= []).push(...[value].flat());
  const { unofficialrun, unofficialruns } = loadShareLink(byName);
  const ids = [...unofficialrun, ...unofficialruns].flatMap((v) => v.split(",")).map((s) => s.trim());
  const clean = [...new Set(ids.filter((s) => /^[A-Za-z0-9_-]{1,64}$/.test(s)))];
  if (clean.length === 0) return runsHref();
  if (clean.length === 1) return runHref(clean[0]);
  return compareHref({ runs: clean });
}
