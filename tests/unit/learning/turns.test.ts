// Batch ingestion leaves the event loop to other requests: a bounded number of batches at once,
// each walking its runs in slices with a return to the event loop between them.
import { describe, expect, it } from "vitest";
import { inStoreTurn, STORE_TURNS } from "@/lib/learning/capture/turns";
import { mapInSlices, SLICE } from "@/lib/slices";

describe("mapInSlices", () => {
  it("maps like Array.map, letting a waiting callback run between slices and never before the first", async () => {
    const order: string[] = [];
    setImmediate(() => order.push("other request"));
    const out = await mapInSlices(Array.from({ length: SLICE * 2 + 1 }, (_, i) => i), (x, i) => {
      if (i % SLICE === 0) order.push(`slice at ${i}`);
      return x * 2;
    });
    expect(out).toEqual(Array.from({ length: SLICE * 2 + 1 }, (_, i) => i * 2));
    expect(order[0]).toBe("slice at 0");
    expect(order.indexOf("other request")).toBe(1);

    // A small batch is mapped in one go: nothing else runs in between.
    const small: string[] = [];
    setImmediate(() => small.push("other request"));
    await mapInSlices([1, 2, 3], (x) => small.push(`item ${x}`));
    expect(small).toEqual(["item 1", "item 2", "item 3"]);
  });
});

describe("inStoreTurn", () => {
  it(`runs at most ${STORE_TURNS} batches at once; the others start as turns free`, async () => {
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const batch = () =>
      inStoreTurn(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((r) => releases.push(r));
        running--;
      });
    const all = Promise.all(Array.from({ length: STORE_TURNS + 3 }, batch));
    for (let done = 0; done < STORE_TURNS + 3; done++) {
      while (releases.length === 0) await new Promise((r) => setImmediate(r));
      expect(running).toBeLessThanOrEqual(STORE_TURNS);
      releases.shift()!();
    }
    await all;
    expect(most).toBe(STORE_TURNS);
  });
});
