/**
 * The drill-down half of an ingest (docs/http-api.md, `drilldownReadyAt`): work only the
 * drill-down views read (request rows re-anchored, the slowest-request lists read back from them),
 * done after the summary is committed and the upload has its answer. The process keeps a list of
 * the ones under way so that closing the store can wait for them.
 */

// On globalThis, as for the app context: the bundle may hold several copies of this module.
const KEY = Symbol.for("runlens.drilldowns");
const holder = globalThis as { [KEY]?: Set<Promise<unknown>> };
const pending = (holder[KEY] ??= new Set());

/** Keeps `work` on the list until it settles; returns it. */
export function trackDrilldown<T>(work: Promise<T>): Promise<T> {
  pending.add(work);
  const done = () => pending.delete(work);
  work.then(done, done);
  return work;
}

/** Resolves once every drill-down under way has settled (whatever its outcome). */
export async function drilldownsSettled(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
