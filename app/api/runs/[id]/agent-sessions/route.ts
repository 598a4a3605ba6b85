import { agentSessionPageQuerySchema, agentSessionPageWireSchema } from "@/lib/api/agent-sessions";
import { runParamsSchema } from "@/lib/api/route-params";
import { agentSessionPage } from "@/lib/runs/agent-sessions";
import { jsonOk } from "@/lib/server/http";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

/**
 * Every agent session of the run, a page at a time (`?page=n`, from 0; docs/http-api.md): the
 * agent-sessions chart carries the longest few. 404 without sessions or past the last page.
 */
export const GET = route(
  { auth: "read", params: runParamsSchema, query: agentSessionPageQuerySchema, resource: "session page" },
  async ({ app, params, query }) => {
    const page = await agentSessionPage(app.store.db, params.id, query.page);
    return page ? jsonOk(agentSessionPageWireSchema, page) : null;
  },
);
