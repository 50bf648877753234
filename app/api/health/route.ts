import { route, json } from "@/lib/api/handler";
import { databaseHealthy } from "@/lib/db/health";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "none" }, async () =>
  (await databaseHealthy())
    ? { status: "ok", database: "ok" }
    : json({ status: "degraded", database: "unavailable" }, 503),
);
