/**
 * Stamped on every summary. Bump it when a parser or formula changes what a run's numbers
 * would be, so stored runs can be recognised as stale and re-ingested from their raw files.
 */
export const AGGREGATOR_VERSION = 19;
