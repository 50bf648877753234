import { route, json } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { databaseHealthy } from "@/lib/db/health";

export const dynamic = "force-dynamic";

export const GET = route(v1.getHealth, async () =>
  (await databaseHealthy())
    ? { status: "ok", database: "ok" }
    : json({ status: "degraded", database: "unavailable" }, 503),
);
