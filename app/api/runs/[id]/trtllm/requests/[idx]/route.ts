import { z } from "zod";
import { requestDetailSchema } from "@/lib/api/trtllm-charts";
import { getAppContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/handle";
import { jsonOk, notFound } from "@/lib/server/http";
import { isValidId } from "@/lib/store/ids";
import { requestDetail } from "@/lib/runs/trtllm-requests";

export const dynamic = "force-dynamic";

const idxSchema = z.coerce
  .number()
  .int()
  .min(0)
  .max(2 ** 31);

/** One request's waterfall: every timestamp, every segment, KV numbers and its step timeline. */
export const GET = handle(
  async (_req: Request, { params }: { params: Promise<{ id: string; idx: string }> }) => {
    const { id, idx } = await params;
    const parsed = idxSchema.safeParse(idx);
    if (!isValidId(id) || !parsed.success) return notFound("request");
    const { store } = await getAppContext();
    const detail = await requestDetail(store.db, id, parsed.data);
    if (!detail) return notFound("request");
    return jsonOk(requestDetailSchema, detail);
  },
);
