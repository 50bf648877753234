// Stage one OTLP export as sent by `actor`: decode it (../decode.ts) and stage its spans
// (./stage-spans.ts), in the request or on the staging thread (./receive-export.ts decides).
import type { Db } from "../../db/prisma";
import type { Actor } from "../../auth/actor";
import { reachesAgent } from "../../auth/key-reach";
import { decodeJson, decodeProtobuf } from "../decode";
import { stageSpans, type StageSpansResult } from "./stage-spans";

/** An export's body, decoded from gzip if it was sent so, and who sent it. */
export type ExportInput = { json: boolean; bytes: Uint8Array; actor: Actor | null };

export async function stageExport(db: Db, { json, bytes, actor }: ExportInput): Promise<StageSpansResult> {
  const decoded = json ? decodeJson(bytes) : decodeProtobuf(bytes);
  const apiKeyId = actor?.type === "api_key" ? actor.id : null;
  return stageSpans(db, { spans: decoded.spans, decoded, reaches: (agentId) => reachesAgent(actor, agentId), apiKeyId });
}
