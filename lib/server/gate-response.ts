import { gateResultSchema, type GateResult } from "@/lib/api/regression-schemas";
import { jsonOk } from "./http";

/**
 * A gate result as JSON or as the Markdown summary; both say the outcome and the exit code in
 * headers too, so a CI step can read them without parsing the body.
 */
export function gateResponse(result: GateResult, format: "json" | "markdown"): Response {
  const headers = {
    "Runlens-Gate": result.outcome,
    "Runlens-Exit-Code": String(result.exitCode),
    "Cache-Control": "no-store",
  };
  if (format === "markdown")
    return new Response(result.markdown, {
      headers: { ...headers, "Content-Type": "text/markdown; charset=utf-8" },
    });
  return jsonOk(gateResultSchema, result, { headers });
}
