import { sql } from "kysely";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "read" }, async ({ app }) => {
  await sql`select 1`.execute(app.store.db);
  return Response.json({ ok: true, store: app.store.dialect });
});
