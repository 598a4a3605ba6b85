import { requestParamsSchema } from "@/lib/api/route-params";
import { requestDetailSchema } from "@/lib/api/trtllm-charts";
import { requestDetail } from "@/lib/runs/trtllm-requests";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** One request's waterfall: every timestamp, every segment, KV numbers and its step timeline. */
export const GET = route(
  { auth: "read", params: requestParamsSchema, resource: "request", requestRows: true },
  async ({ app, params: { id, idx } }) => {
    const detail = await requestDetail(app.store.db, id, idx);
    return detail && jsonOk(requestDetailSchema, detail);
  },
);
