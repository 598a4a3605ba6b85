import { timelineRequestParamsSchema } from "@/lib/api/route-params";
import { timelineRequestSchema } from "@/lib/api/timeline";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { timelineRequest } from "@/lib/runs/run-timeline";

export const dynamic = "force-dynamic";

/** One aiperf request of the timeline by the id its bar carries (TensorRT-LLM bars open /trtllm/requests/{idx}). */
export const GET = route(
  { auth: "read", params: timelineRequestParamsSchema, resource: "request", requestRows: true },
  async ({ app, params }) => {
    const r = await timelineRequest(app.store.db, params.id, params.rid);
    return r ? jsonOk(timelineRequestSchema, r) : null;
  },
);
