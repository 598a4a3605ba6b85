import { runParamsSchema } from "@/lib/api/route-params";
import { sweepRunSchema } from "@/lib/api/sweeps";
import { sweepMember } from "@/lib/runs/sweep-run-point";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/** One run as a sweep point (its facts and its point at every statistic), to mark it on a sweep's charts. */
export const GET = route(
  { auth: "read", params: runParamsSchema, heavy: true },
  async ({ app, params: { id } }) => {
    const member = await sweepMember(app, id);
    return member && jsonOk(sweepRunSchema, member.run);
  },
);
