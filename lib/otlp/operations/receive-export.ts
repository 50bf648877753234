// An OTLP export received (POST /api/v1/otlp/v1/traces) is staged in the request when it holds up
// to IN_REQUEST_BYTES decoded: a few milliseconds of the main thread (an OpenTelemetry SDK's
// default batch of 512 GenAI spans is a few hundred KiB), where a thread's hand-over and its own
// garbage collection would add about a third to their server CPU (`npm run bench:otlp`). Larger
// ones, whose decoding would hold the main thread for up to hundreds of milliseconds, go to the
// staging thread (../staging-thread.ts), which runs stageExport there.
import type { Db } from "../../db/prisma";
import { stagingThread } from "../staging-thread";
import { stageExport, type ExportInput } from "./stage-export";
import type { StageSpansResult } from "./stage-spans";

/** Decoded bytes of the largest export staged in the request (more: on the staging thread). */
export const IN_REQUEST_BYTES = 1024 * 1024;

/** Stages the export in the request or on the staging thread, by its size. */
export function stageOtlpExport(db: Db, input: ExportInput): Promise<StageSpansResult> {
  return input.bytes.byteLength > IN_REQUEST_BYTES ? stagingThread.stage(input) : stageExport(db, input);
}
