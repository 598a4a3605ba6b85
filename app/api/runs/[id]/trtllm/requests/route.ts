import { z } from "zod";
import { requestSampleSchema, SAMPLE_SORTS } from "@/lib/api/trtllm-charts";
import { getAppContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/handle";
import { jsonError, jsonOk, notFound } from "@/lib/server/http";
import { isValidId } from "@/lib/store/ids";
import { getRun } from "@/lib/store/runs-repo";
import { MAX_SAMPLE, sampleRequests } from "@/lib/runs/trtllm-requests";

export const dynamic = "force-dynamic";

const querySchema = z.object({
  sort: z.enum(SAMPLE_SORTS).default("arrival"),
  order: z.enum(["asc", "desc"]).default("asc"),
  limit: z.coerce.number().int().min(1).max(MAX_SAMPLE).default(MAX_SAMPLE),
});

/** A sample of ≤ 2,000 requests with their segments, sorted by TTFT, end-to-end time or arrival. */
export const GET = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  if (!isValidId(id)) return notFound();
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success)
    return jsonError(
      400,
      "invalid_query",
      "sort must be ttft, e2e or arrival; limit 1..2000",
      parsed.error.issues,
    );
  const { store } = await getAppContext();
  if (!(await getRun(store.db, id))) return notFound();
  const sample = await sampleRequests(store.db, id, parsed.data.sort, parsed.data.order, parsed.data.limit);
  if (!sample) return notFound("TensorRT-LLM requests");
  return jsonOk(requestSampleSchema, sample);
});
