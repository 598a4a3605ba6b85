import { runParamsSchema } from "@/lib/api/route-params";
import { requestSampleSchema, sampleQuerySchema } from "@/lib/api/trtllm-charts";
import { jsonOk, notFound } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { getRun } from "@/lib/store/runs-repo";
import { sampleRequests } from "@/lib/runs/trtllm-requests";

export const dynamic = "force-dynamic";

/** A sample of ≤ 2,000 requests with their segments, sorted by TTFT, end-to-end time or arrival. */
export const GET = route(
  { auth: "read", params: runParamsSchema, query: sampleQuerySchema, requestRows: true },
  async ({ app, params: { id }, query: { sort, order, limit } }) => {
    if (!(await getRun(app.store.db, id))) return null;
    const sample = await sampleRequests(app.store.db, id, sort, order, limit);
    if (!sample) return notFound("TensorRT-LLM requests");
    return jsonOk(requestSampleSchema, sample);
  },
);
