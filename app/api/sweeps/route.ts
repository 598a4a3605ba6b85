import { createSweepBodySchema, sweepListQuerySchema, sweepListSchema, sweepSchema } from "@/lib/api/sweeps";
import { createSweep, readSweep } from "@/lib/runs/sweeps";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { listSweeps } from "@/lib/store/sweeps-repo";

export const dynamic = "force-dynamic";

export const GET = route(
  { auth: "read", listsRuns: true, query: sweepListQuerySchema },
  async ({ app, query }) => {
    const rows = await listSweeps(app.store.db, query.limit);
    return jsonOk(sweepListSchema, {
      sweeps: rows.map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: new Date(Number(r.created_at)).toISOString(),
        runCount: r.runCount,
      })),
    });
  },
);

/** Groups existing runs into a new sweep; a run already in a sweep moves to this one. */
export const POST = route({ auth: "write", body: createSweepBodySchema }, async ({ app, body }) => {
  const id = await createSweep(app, body.name, body.runIds);
  const sweep = await readSweep(app, id);
  return sweep && jsonOk(sweepSchema, sweep, { status: 201, headers: { Location: `/sweeps/${id}` } });
});
