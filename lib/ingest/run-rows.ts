/** The catalog side of a new run: its name, labels and file rows from what the upload sent. */
import { newFileId } from "@/lib/store/ids";
import type { FileRow } from "@/lib/store/runs-repo";
import type { ReceivedUpload, StagedFile } from "./upload-types";

export function parseLabels(raw: string | undefined): string[] {
  if (!raw) return [];
  const labels = raw
    .split(",")
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((l) => l.slice(0, 64));
  return [...new Set(labels)].slice(0, 32);
}

export function runName(upload: ReceivedUpload): string {
  return (upload.fields.name?.trim() || upload.suggestedName).slice(0, 200);
}

/** The staged files as catalog rows of `runId`, each with the meta `metaOf` gives it (none: `{}`). */
export function fileRows(
  runId: string,
  staged: StagedFile[],
  metaOf: (f: StagedFile) => object | undefined = () => undefined,
): FileRow[] {
  return staged.map((f, ord) => ({
    id: f.id ?? newFileId(),
    run_id: runId,
    ord,
    name: f.name,
    kind: f.kind,
    format: f.format,
    bytes: f.bytes,
    sha256: f.sha256,
    records: 0,
    skipped: 0,
    warnings: "[]",
    meta: JSON.stringify(metaOf(f) || {}),
  }));
}
