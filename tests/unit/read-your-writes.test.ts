// The mark a console change leaves in its session's cookie (lib/db/read-your-writes.ts): in
// force for a bounded time only, whatever the cookie says.
import { describe, expect, it } from "vitest";
import { formatWriteMark, parseWriteMark, READ_YOUR_WRITES_SECONDS } from "@/lib/db/read-your-writes";

const now = 1_800_000_000_000;
const bound = READ_YOUR_WRITES_SECONDS * 1000;

describe("read-your-writes mark", () => {
  it("reads back what it wrote while in force", () => {
    const mark = { lsn: "0/3000148", until: now + bound };
    expect(parseWriteMark(formatWriteMark(mark), now)).toEqual(mark);
    expect(parseWriteMark(formatWriteMark({ lsn: "1A/FFFFFFFF", until: now + 1 }), now)).toEqual({ lsn: "1A/FFFFFFFF", until: now + 1 });
  });

  it("ends at its time, and a time past the bound is refused", () => {
    expect(parseWriteMark(formatWriteMark({ lsn: "0/3000148", until: now }), now)).toBeNull();
    expect(parseWriteMark(formatWriteMark({ lsn: "0/3000148", until: now + bound + 1 }), now)).toBeNull();
  });

  it("refuses anything but a WAL position and a time", () => {
    for (const value of [undefined, "", "0/3000148", `0/3000148~${now + 1}~x`, `0/3000148'~${now + 1}`, `x/1~${now + 1}`, `0/123456789~${now + 1}`, `0/1~${now + 0.5}`, `0/1~1e20`]) {
      expect(parseWriteMark(value, now), String(value)).toBeNull();
    }
  });
});
