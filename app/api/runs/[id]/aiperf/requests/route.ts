import { requestListQuerySchema, requestListSchema } from "@/lib/api/aiperf-requests";
import { slowestRequests } from "@/lib/store/aiperf-requests";
import { getAppContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/handle";
import { jsonError, jsonOk, notFound } from "@/lib/server/http";
import { isValidId } from "@/lib/store/ids";
import { getRun } from "@/lib/store/runs-repo";

export const dynamic = "force-dynamic";

/** The run's aiperf requests ordered by TTFT, end-to-end latency, ITL or start (≤ 200 rows). */
export const GET = handle(async (req: Request, { params }: { params: Promise<{ id: string }> }) => {
  const { id } = await params;
  if (!isValidId(id)) return notFound();
  const parsed = requestListQuerySchema.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success)
    return jsonError(
      400,
      "invalid_query",
      "sort must be ttft, e2e, itl or start; order asc or desc; limit 1..200",
      parsed.error.issues,
    );
  const { store } = await getAppContext();
  if (!(await getRun(store.db, id))) return notFound();
  return jsonOk(requestListSchema, await slowestRequests(store.db, id, parsed.data));
});
