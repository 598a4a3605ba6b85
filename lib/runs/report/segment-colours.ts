/**
 * The time-breakdown segments' colours in the report, the app's own (app/globals.css `--seg-*`,
 * one set for both themes, checked for colour-blind safety there): a report has no stylesheet
 * variables to read, so they are written here, and test/unit/report-segment-colours.test.ts holds
 * the two to the same values.
 */
export const SEGMENT_HEX: Readonly<Record<string, string>> = {
  disagg_preprocessing: "#dddddd",
  ctx_preprocessing: "#99ddff",
  ctx_queue: "#f0e442",
  ctx_processing: "#332288",
  ctx_postprocessing: "#77aadd",
  disagg_relay: "#666633",
  gen_preprocessing: "#aaaa00",
  gen_queue: "#997700",
  gen_queue_wait: "#ee99aa",
  gen_kv_transfer: "#882255",
  gen_post_transfer: "#cc79a7",
  gen_postprocessing: "#aa4499",
  disagg_postprocessing: "#663333",
  decode: "#009e73",
};
