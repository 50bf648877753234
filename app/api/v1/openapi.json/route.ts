import { route } from "@/lib/api/handler";
import { v1 } from "@/lib/api/v1/contract";
import { openApiDocument } from "@/lib/api/v1/openapi";

export const dynamic = "force-dynamic";

export const GET = route(v1.getOpenApi, async () => openApiDocument());
