/** A run's request timeline as stored columns (created by ../migrations/015-timeline-columns.ts). */

/** One run's timeline: typed-array columns and their description in one blob (see ../timeline-columns.ts). */
export interface RunTimelineColumnsTable {
  run_id: string;
  /** Requests on the timeline */
  count: number;
  data: Uint8Array;
  /** JSON of the first window cut from the columns at ingest (../migrations/017-timeline-first-window.ts); null before it */
  first_window: string | null;
}

export interface TimelineColumnsTables {
  run_timeline_columns: RunTimelineColumnsTable;
}
