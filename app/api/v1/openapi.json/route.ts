import { route } from "@/lib/api/handler";
import { openApiDocument } from "@/lib/api/v1/openapi";

export const dynamic = "force-dynamic";

export const GET = route({ auth: "none" }, async () => openApiDocument());
