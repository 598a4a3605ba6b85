/**
 * How the page names a TensorRT-LLM request: the slowest list, the breakdown's bars, the
 * drill-down's title and its waterfall all say it with these two functions, so one request never
 * shows two different numbers. Ids are named in words, as the drill-down's facts name them
 * ("disagg request id 1182", "ctx request id 57"), never by their record field (`request_id`): the
 * field names are in the Request column's tooltip. A request's position in the run (`idx`, 0-based, the key of its
 * drill-down URL `req`) is shown only when it records no id, 1-based and said to be a position.
 */

/** The ids a request's row carries; `undefined` = this payload does not carry that id. */
export interface TrtllmRequestIds {
  /** Position in the run, 0-based */
  idx: number;
  requestId: string | null;
  disaggRequestId?: string | null;
  ctxRequestId?: string | null;
}

/**
 * The request's name: its disagg server's `disagg_request_id` when recorded (one per request of a
 * disaggregated run, "disagg request id 1182"), else TensorRT-LLM's `request_id` ("request id
 * 33"), else "request N (no id recorded)", N its 1-based position in the run.
 */
export function trtllmRequestName(r: TrtllmRequestIds): string {
  if (r.disaggRequestId != null) return `disagg request id ${r.disaggRequestId}`;
  if (r.requestId !== null) return `request id ${r.requestId}`;
  return `request ${r.idx + 1} (no id recorded)`;
}

/**
 * The id the request's link opens it by (`?rid=`, docs/http-api.md §A request's link): the id its
 * name says, null when it records none (its link keeps its position, `req`).
 */
export function trtllmRequestOwnId(r: TrtllmRequestIds): string | null {
  return r.disaggRequestId ?? r.requestId;
}

/** The drill-down's title: the request's name, then each other id it carries, in words. */
export function trtllmRequestTitle(r: TrtllmRequestIds): string {
  const parts = [trtllmRequestName(r)];
  if (r.disaggRequestId != null && r.requestId !== null) parts.push(`request id ${r.requestId}`);
  if (r.ctxRequestId != null) parts.push(`ctx request id ${r.ctxRequestId}`);
  return parts.join(" · ");
}

/**
 * A record field that holds a request's id, in words as the names above say it:
 * `disagg_request_id` → "disagg request id", `ctx_request_id` → "ctx request id", `request_id` →
 * "request id", aiperf's `x_request_id` → "client request id". Another field is written with its
 * underscores as spaces.
 */
export function idFieldWords(field: string): string {
  if (field === "x_request_id") return "client request id";
  return field.replace(/_/g, " ");
}

/**
 * Every request-id field named in `text` ("600 by disagg_request_id, 0 by ctx_request_id"), in
 * words (`idFieldWords`): "600 by disagg request id, 0 by ctx request id".
 */
export function idFieldsInWords(text: string): string {
  return text.replace(/\b(?:x_|disagg_|ctx_|gen_)?request_id\b/g, (f) => idFieldWords(f));
}
