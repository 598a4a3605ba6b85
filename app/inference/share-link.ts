/**
 * InferenceX-style share links: `/inference?unofficialRun=ID` or `unofficialruns=ID1,ID2`, with
 * the parameter name in any case. One id opens the run, several open the comparison.
 */
export function resolveShareLink(params: Record<string, string | string[] | undefined>): string {
  const ids: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (!/^unofficialruns?$/i.test(key) || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) ids.push(...v.split(","));
  }
  const clean = [...new Set(ids.map((s) => s.trim()).filter((s) => /^[A-Za-z0-9_-]{1,64}$/.test(s)))];
  if (clean.length === 0) return "/";
  if (clean.length === 1) return `/runs/${clean[0]}`;
  return `/compare?runs=${clean.join(",")}`;
}
