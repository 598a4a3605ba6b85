import { patchSweepBodySchema, sweepIdParamsSchema, sweepSchema } from "@/lib/api/sweeps";
import { changeSweep, readSweep } from "@/lib/runs/sweeps";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";
import { deleteSweep } from "@/lib/store/sweeps-repo";

export const dynamic = "force-dynamic";

const spec = { params: sweepIdParamsSchema, resource: "sweep" } as const;

export const GET = route({ ...spec, auth: "read" }, async ({ app, params: { id } }) => {
  const sweep = await readSweep(app, id);
  return sweep && jsonOk(sweepSchema, sweep, { headers: { "Cache-Control": "no-cache" } });
});

export const PATCH = route(
  { ...spec, auth: "write", body: patchSweepBodySchema },
  async ({ app, params: { id }, body }) => {
    if (!(await changeSweep(app, id, body))) return null;
    const sweep = await readSweep(app, id);
    return sweep && jsonOk(sweepSchema, sweep);
  },
);

/** Deletes the sweep only: its runs stay, each still reachable by its own link. */
export const DELETE = route({ ...spec, auth: "write" }, async ({ app, params: { id } }) =>
  (await deleteSweep(app.store.db, id)) ? new Response(null, { status: 204 }) : null,
);
