import { sql } from "kysely";
import { getAppContext } from "@/lib/server/app-context";
import { handle } from "@/lib/server/handle";

export const dynamic = "force-dynamic";

export const GET = handle(async () => {
  const app = await getAppContext();
  await sql`select 1`.execute(app.store.db);
  return Response.json({ ok: true, store: app.store.dialect });
});
