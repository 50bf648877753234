// Stage one OTLP export as sent by `actor`: decode it (../decode.ts) and stage its spans
// (./stage-spans.ts). Exports of up to IN_REQUEST_BYTES are staged in the request: a few
// milliseconds of the main thread (an OpenTelemetry SDK's default batch of 512 GenAI spans is a
// few hundred KiB), where a thread's hand-over and its own garbage collection would add about a
// third to their server CPU (`npm run bench:otlp`). Larger ones, whose decoding would hold the
// main thread for up to hundreds of milliseconds, go to the staging thread (../staging-thread.ts),
// which runs stageExport there.
import type { Db } from "../../db/prisma";
import type { Actor } from "../../auth/actor";
import { reachesAgent } from "../../auth/key-reach";
import { decodeJson, decodeProtobuf } from "../decode";
import { stagingThread } from "../staging-thread";
import { stageSpans, type StageSpansResult } from "./stage-spans";

/** Decoded bytes of the largest export staged in the request (more: on the staging thread). */
export const IN_REQUEST_BYTES = 1024 * 1024;

/** An export's body, decoded from gzip if it was sent so, and who sent it. */
export type ExportInput = { json: boolean; bytes: Uint8Array; actor: Actor | null };

export async function stageExport(db: Db, { json, bytes, actor }: ExportInput): Promise<StageSpansResult> {
  const decoded = json ? decodeJson(bytes) : decodeProtobuf(bytes);
  const apiKeyId = actor?.type === "api_key" ? actor.id : null;
  return stageSpans(db, { spans: decoded.spans, decoded, reaches: (agentId) => reachesAgent(actor, agentId), apiKeyId });
}

/** Stages the export in the request or on the staging thread, by its size. */
export function stageOtlpExport(db: Db, input: ExportInput): Promise<StageSpansResult> {
  return input.bytes.byteLength > IN_REQUEST_BYTES ? stagingThread.stage(input) : stageExport(db, input);
}
