import type { Analyzer, FileReport } from "../analyzer";

export const IDENTICAL_FILE_WARNING = "identical to another file of this run; not counted twice";

/**
 * The same bytes uploaded twice in one run (loose and inside an archive, a folder and one of its
 * files picked again) would count every record, sample and pool twice. One set of hashes shared by
 * all analyzers of a run lets only the first copy through, whatever its family; later ones are
 * reported, unread.
 */
export function skipIdenticalFiles(analyzers: Analyzer[]): Analyzer[] {
  const seen = new Set<string>();
  return analyzers.map((analyzer) => ({
    name: analyzer.name,
    tables: analyzer.tables,
    accepts: (file) => analyzer.accepts(file),
    finish: (ctx) => analyzer.finish(ctx),
    async ingestFile(file, ctx): Promise<FileReport> {
      if (seen.has(file.sha256))
        return {
          records: 0,
          skipped: 0,
          warnings: [{ message: IDENTICAL_FILE_WARNING }],
          meta: { role: "duplicate" },
        };
      seen.add(file.sha256);
      return analyzer.ingestFile(file, ctx);
    },
  }));
}
