import { z } from "zod";
import { runParamsSchema } from "@/lib/api/route-params";
import { runTrace, untilRowsChange } from "@/lib/runs/run-trace";
import { attachmentName, textStream } from "@/lib/server/download";
import { jsonError } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

const traceQuerySchema = z.object({ source: z.enum(["trtllm", "aiperf"]).optional() });

/** GET /api/runs/{id}/trace.json → the run's requests as a Chrome JSON trace, streamed. */
export const GET = route(
  { auth: "read", params: runParamsSchema, query: traceQuerySchema, heavy: true, requestRows: true },
  async ({ app, params: { id }, query, rowsChanged }) => {
    const trace = await runTrace(app.store.db, id, query.source);
    if (trace === null) return null;
    if (trace === "empty")
      return jsonError(
        404,
        "no_requests",
        "this run has no per-request records to trace: upload TensorRT-LLM perf metrics or aiperf profile_export.jsonl",
      );
    // Streamed after the route's last look at the run: each piece looks again, and a re-ingest
    // begun meanwhile ends the download in a failure (lib/runs/run-trace.ts untilRowsChange).
    const chunks = untilRowsChange(trace.chunks, async () => {
      const refused = await rowsChanged();
      if (!refused) return null;
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      return error;
    });
    return new Response(textStream(chunks), {
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Disposition": `attachment; filename="${attachmentName(trace.runName, "trace.json")}"`,
        "Cache-Control": "no-cache",
      },
    });
  },
);
