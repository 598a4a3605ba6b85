import { z } from "zod";
import { runParamsSchema } from "@/lib/api/route-params";
import { runTrace } from "@/lib/runs/run-trace";
import { attachmentName, textStream } from "@/lib/server/download";
import { jsonError } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const traceQuerySchema = z.object({ source: z.enum(["trtllm", "aiperf"]).optional() });

/** GET /api/runs/{id}/trace.json → the run's requests as a Chrome JSON trace, streamed. */
export const GET = route(
  { auth: "read", params: runParamsSchema, query: traceQuerySchema, heavy: true, requestRows: true },
  async ({ app, params: { id }, query }) => {
    const trace = await runTrace(app.store.db, id, query.source);
    if (trace === null) return null;
    if (trace === "empty")
      return jsonError(
        404,
        "no_requests",
        "this run has no per-request records to trace: upload TensorRT-LLM perf metrics or aiperf profile_export.jsonl",
      );
    return new Response(textStream(trace.chunks), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${attachmentName(trace.runName, "trace.json")}"`,
        "Cache-Control": "no-cache",
      },
    });
  },
);
