// Digests that stand in for long text in btree keys (an index entry holds at most ~2.7 kB,
// less than the ledger's length limits add up to). Queries still compare the full text.
import { createHash } from "node:crypto";

/** sha256 over length-prefixed UTF-8 parts, so ("a:b","c") and ("a","b:c") never collide by construction. */
function digestParts(parts: string[]): Uint8Array<ArrayBuffer> {
  const h = createHash("sha256");
  for (const part of parts) {
    const bytes = Buffer.from(part, "utf8");
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    h.update(length).update(bytes);
  }
  return new Uint8Array(h.digest());
}

export const selectionKey = (task: string, baselineRevision: string, evaluationContract: string): Uint8Array<ArrayBuffer> =>
  digestParts([task, baselineRevision, evaluationContract]);

export const evidenceKey = (evidenceRef: string): Uint8Array<ArrayBuffer> => digestParts([evidenceRef]);
