/**
 * One key per endpoint. aiperf writes `endpoint_url` as a full URL in JSON
 * (`http://host:8000/metrics`) and as `host:port[/path]` in CSV; TRT-LLM disagg records name
 * `http://ctx0:8001`. All of them become `host:port[/path]` without the `/metrics` suffix.
 */
export function normalizeEndpoint(raw: string): string {
  let s = raw.trim();
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
  s = s.replace(/\/+$/, "");
  s = s.replace(/\/metrics$/i, "");
  s = s.replace(/\/+$/, "");
  const slash = s.indexOf("/");
  const host = (slash === -1 ? s : s.slice(0, slash)).toLowerCase();
  const rest = slash === -1 ? "" : s.slice(slash);
  return host + rest;
}
