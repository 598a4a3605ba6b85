/**
 * An upload from its request to its stored run, with the run's series fields (docs/metrics.md
 * §Regressions) from the form or from the caller. Shared by POST /api/runs and POST /api/gate.
 * Files in several run folders make one run each and a sweep of them; each gets the series fields.
 */
import { seriesFieldsSchema } from "@/lib/api/series-fields";
import type { UploadResponse } from "@/lib/api/schemas";
import { setRunSeries, type SeriesFields } from "@/lib/store/series-repo";
import { createRunsFromUpload } from "./create-runs";
import type { IngestDeps } from "./deps";
import { MalformedRequestError } from "@/lib/api/request-errors";
import { SweepIngest } from "./sweep-ingest";
import { receiveUpload } from "./upload";
import type { ReceivedUpload, UploadLimits } from "./upload-types";

type Deps = IngestDeps & { config: IngestDeps["config"] & UploadLimits };

/** The form's series fields, overridden by the caller's; a bad one refuses the upload. */
function seriesFields(upload: ReceivedUpload, given: SeriesFields): SeriesFields {
  const raw = {
    series: given.series ?? upload.fields.series,
    commit: given.commit ?? upload.fields.commit,
    branch: given.branch ?? upload.fields.branch,
    order: given.order ?? upload.fields.order,
  };
  const parsed = seriesFieldsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MalformedRequestError(
      "bad_series",
      `invalid ${String(issue.path[0] ?? "series field")}: ${issue.message}`,
    );
  }
  return parsed.data;
}

export async function uploadRun(app: Deps, req: Request, given: SeriesFields = {}): Promise<UploadResponse> {
  // A refused or broken upload takes its runs with it.
  const live = new SweepIngest(app);
  let upload: ReceivedUpload;
  let fields: SeriesFields;
  try {
    upload = await receiveUpload(req, app.blobs, app.config, live);
    fields = seriesFields(upload, given);
  } catch (err) {
    await live.abandon();
    throw err;
  }
  const created = await createRunsFromUpload(app, upload, live);
  for (const id of created.runs?.map((r) => r.id) ?? [created.id])
    await setRunSeries(app.store.db, id, fields);
  return created;
}
