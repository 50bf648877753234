import { route } from "@/lib/api/handler";
import { db } from "@/lib/db/client";
import { agentParams, classListQuery } from "@/lib/api/v1/schemas";
import { listClasses } from "@/lib/learning/classes";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "any", params: agentParams, query: classListQuery }, async ({ params, query }) =>
  listClasses(db(), params.agent_id, { limit: query.limit, cursor: query.cursor, userId: query.user_id }),
);
