import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { db } from "@/lib/db/client";
import { listClasses } from "@/lib/learning/classes/trajectory-classes";

export const dynamic = "force-dynamic";

export const GET = route(v1.listClasses, async ({ params, query }) =>
  listClasses(db(), params.agent_id, { limit: query.limit, cursor: query.cursor, userId: query.user_id }),
);
