/**
 * Names of uploaded files and archive entries. Archive entries that try to leave the archive
 * (absolute paths, drive letters, `..` segments) are refused: an upload never names a place
 * outside itself. Names are only ever labels here (blobs are content-addressed), but the rule
 * keeps a later "extract to disk" from becoming a zip-slip.
 */
export function isUnsafeArchivePath(name: string): boolean {
  const n = name.replace(/\\/g, "/");
  if (n.startsWith("/") || /^[a-zA-Z]:/.test(n)) return true;
  return n.split("/").some((seg) => seg === "..");
}

/** Archive noise that is never an artifact (macOS resource forks, Finder metadata). */
export function isJunkEntry(name: string): boolean {
  const n = name.replace(/\\/g, "/");
  const base = n.split("/").pop() ?? "";
  return (
    n.startsWith("__MACOSX/") || n.includes("/__MACOSX/") || base === ".DS_Store" || base.startsWith("._")
  );
}

/** A display name for a multipart file name: forward slashes, no leading slash, no `..`, bounded length. */
export function cleanUploadName(raw: string | undefined, fallback: string): string {
  const segs = (raw ?? "")
    .replace(/\\/g, "/")
    .split("/")
    .filter((s) => s !== "" && s !== "." && s !== "..")
    .map((s) => s.replace(/[\u0000-\u001f]/g, ""));
  const name = segs.join("/").slice(-300);
  return name || fallback;
}

/** `a/b/c.jsonl.gz` → `a/b/c.jsonl` */
export function stripGzSuffix(name: string): string {
  return name.replace(/\.(gz|gzip)$/i, "");
}

/** `run.tar.gz` → `run` (archive name used as a prefix and as the default run name). */
export function archiveStem(name: string): string {
  const base = name.split("/").pop() ?? name;
  return base.replace(/\.(tar\.gz|tgz|tar|zip)$/i, "");
}
