import path from "node:path";

/** Environment settings, read once per process (docs/configuration.md). */
export interface AppConfig {
  dataDir: string;
  databaseUrl: string | null;
  apiToken: string | null;
  maxUploadBytes: number;
  uploadTimeoutMs: number;
  maxArchiveEntries: number;
  maxExpandedBytes: number;
  /** A gzip stream expanding more than this many times its compressed size is a bomb (see lib/ingest/sniff.ts) */
  maxExpansionRatio: number;
  maxLineBytes: number;
  maxJsonDocumentBytes: number;
  seedExamples: boolean;
  privateMode: boolean;
  /** An `ingesting` run whose heartbeat is older than this was interrupted (see lib/store/interrupted-ingest.ts). */
  ingestStaleMs: number;
  /** When an upload answers: once its summary is stored ("background"), or its drill-down too ("inline") */
  drilldown: "background" | "inline";
  /** The blob collector removes only unused blobs and temp leftovers older than this. */
  blobGcGraceMs: number;
  /**
   * Whether runs stored before the columnar request file are rebuilt from their raw files in the
   * background at start-up (`RUNLENS_REBUILD_ROW_RUNS`, on unless "off"; lib/ingest/rebuild-row-runs.ts)
   */
  rebuildRowRuns: boolean;
  /**
   * Where links in answers point (`RUNLENS_PUBLIC_URL`, an http(s) URL without a trailing slash);
   * null: the address each request was made to (lib/server/public-origin.ts)
   */
  publicUrl: string | null;
  /** DuckDB, the columnar run store's engine (docs/architecture.md §Where run data lives) */
  duckdb: {
    threads: number;
    /** As DuckDB reads it: "256MB", "1GB" */
    memoryLimit: string;
    /** Where DuckDB spills what exceeds its memory limit */
    tempDir: string;
  };
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

/** An http(s) URL as origin plus path, without a trailing slash; null when unset or not one. */
function publicUrl(raw: string | undefined): string | null {
  if (!raw) return null;
  try {
    const u = new URL(raw.trim());
    if (u.protocol !== "http:" && u.protocol !== "https:") return null;
    return `${u.origin}${u.pathname}`.replace(/\/+$/, "");
  } catch {
    return null;
  }
}

/** A positive integer setting, or the fallback when it is unset or not one. */
function positiveInt(raw: string | undefined, fallback: number): number {
  if (!raw) return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Every setting comes from the `env` given (a test or the bench passes its own), never from
  // process.env behind the caller's back.
  const intEnv = (name: string, fallback: number) => positiveInt(env[name], fallback);
  return {
    dataDir: path.resolve(/*turbopackIgnore: true*/ env.DATA_DIR || "data"),
    databaseUrl: env.DATABASE_URL || null,
    apiToken: env.RUNLENS_API_TOKEN || null,
    maxUploadBytes: intEnv("RUNLENS_MAX_UPLOAD_BYTES", 2 * GiB),
    uploadTimeoutMs: intEnv("RUNLENS_UPLOAD_TIMEOUT_MS", 30 * 60_000),
    maxArchiveEntries: intEnv("RUNLENS_MAX_ARCHIVE_ENTRIES", 10_000),
    maxExpandedBytes: intEnv("RUNLENS_MAX_EXPANDED_BYTES", 8 * GiB),
    maxExpansionRatio: intEnv("RUNLENS_MAX_EXPANSION_RATIO", 200),
    maxLineBytes: intEnv("RUNLENS_MAX_LINE_BYTES", 64 * MiB),
    maxJsonDocumentBytes: intEnv("RUNLENS_MAX_JSON_DOCUMENT_BYTES", 256 * MiB),
    seedExamples: (env.RUNLENS_EXAMPLES ?? "on") !== "off",
    privateMode: env.RUNLENS_PRIVATE === "true",
    ingestStaleMs: intEnv("RUNLENS_INGEST_STALE_MS", 60_000),
    drilldown: env.RUNLENS_DRILLDOWN === "inline" ? "inline" : "background",
    blobGcGraceMs: intEnv("RUNLENS_BLOB_GC_GRACE_MS", 60 * 60_000),
    rebuildRowRuns: (env.RUNLENS_REBUILD_ROW_RUNS ?? "on") !== "off",
    publicUrl: publicUrl(env.RUNLENS_PUBLIC_URL),
    duckdb: {
      threads: intEnv("RUNLENS_DUCKDB_THREADS", 2),
      memoryLimit: env.RUNLENS_DUCKDB_MEMORY_LIMIT || "512MB",
      tempDir: path.resolve(
        /*turbopackIgnore: true*/ env.RUNLENS_DUCKDB_TEMP_DIR ||
          path.join(env.DATA_DIR || "data", "duckdb-tmp"),
      ),
    },
  };
}
