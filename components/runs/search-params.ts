import { parseAsFloat, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { urlState } from "@/components/url-state";
import { RUN_SORTS } from "@/lib/api/schemas";

/**
 * URL state of the runs page (the search box and the label filter), shared by the server page
 * (first page of runs) and the client table. It lives with the components rather than in the
 * page folder because components may not import app/.
 */
export const runsSearchParams = {
  q: parseAsString.withDefault(""),
  label: parseAsString.withDefault(""),
  /** Run-fact filters (text: part of the value; numbers: exactly) */
  model: parseAsString.withDefault(""),
  gpu: parseAsString.withDefault(""),
  backend: parseAsString.withDefault(""),
  gpus: parseAsInteger,
  concurrency: parseAsFloat,
  /** The sorted column and its direction; a sort is a step of the history. */
  sort: parseAsStringLiteral(RUN_SORTS).withDefault("created").withOptions({ history: "push" }),
  dir: parseAsStringLiteral(["asc", "desc"] as const).withOptions({ history: "push" }),
};

export type RunsUrlState = {
  q: string;
  label: string;
  model: string;
  gpu: string;
  backend: string;
  gpus: number | null;
  concurrency: number | null;
  sort: (typeof RUN_SORTS)[number];
  dir: "asc" | "desc" | null;
};

/** The list query of a runs page URL state: empty filters and defaults left out. */
export function runListParams(s: RunsUrlState, limit: number) {
  return {
    q: s.q || undefined,
    label: s.label || undefined,
    model: s.model || undefined,
    gpu: s.gpu || undefined,
    backend: s.backend || undefined,
    gpus: s.gpus ?? undefined,
    concurrency: s.concurrency ?? undefined,
    sort: s.sort === "created" ? undefined : s.sort,
    dir: s.dir ?? undefined,
    limit,
  };
}

const { cache, serialize: serializeRuns } = urlState(runsSearchParams);

export const runsSearchParamsCache = cache;

/** The link to the runs page filtered as given. */
export function runsHref(state: Parameters<typeof serializeRuns>[1] = {}): string {
  return serializeRuns("/", state);
}

/** Runs per page of the runs table. */
export const RUNS_PAGE_SIZE = 50;
