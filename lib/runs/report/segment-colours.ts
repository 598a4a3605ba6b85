/**
 * The time-breakdown segments' colours in the report, the app's own (app/globals.css `--seg-*`,
 * the light theme's set, checked for colour-blind safety and contrast there): a report has no stylesheet
 * variables to read, so they are written here, and test/unit/report-segment-colours.test.ts holds
 * the two to the same values.
 */
export const SEGMENT_HEX: Readonly<Record<string, string>> = {
  disagg_preprocessing: "#888899",
  ctx_preprocessing: "#5599cc",
  ctx_queue: "#889900",
  ctx_processing: "#332288",
  ctx_postprocessing: "#3377ff",
  disagg_relay: "#666633",
  gen_preprocessing: "#556655",
  gen_queue: "#444400",
  gen_queue_wait: "#995577",
  gen_kv_transfer: "#771144",
  gen_post_transfer: "#994499",
  gen_postprocessing: "#6611ff",
  disagg_postprocessing: "#441111",
  decode: "#119977",
};
