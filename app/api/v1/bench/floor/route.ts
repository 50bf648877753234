// The benchmarks' framework floor (scripts/bench/measure.ts): an authenticated POST that pays
// what every agent request pays (body read, API-key check, rate limit, zod) and writes nothing.
// Served only when the server was started with PROCTOR_BENCH_FLOOR=1; otherwise 404 like any
// unknown path, before authentication, so it reveals nothing.
import { z } from "zod";
import { errorResponse, route } from "@/lib/api/handler";
import { NotFound } from "@/lib/errors";
import { BATCH_BODY_BYTES, INGEST_RATE_PER_KEY } from "@/lib/api/v1/limits";

export const dynamic = "force-dynamic";

const floor = route(
  { auth: "any", access: "runs:write", body: z.looseObject({}), maxBodyBytes: BATCH_BODY_BYTES, rateLimit: INGEST_RATE_PER_KEY },
  async () => ({ ok: true }),
);

export const POST: typeof floor = (req, ctx) =>
  process.env.PROCTOR_BENCH_FLOOR === "1" ? floor(req, ctx) : Promise.resolve(errorResponse(new NotFound("This path"), crypto.randomUUID()));
