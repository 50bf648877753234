// The proving ground as a function: a world of a size and seed, every arm in turn against one
// running Proctor (agents named by `tag`), the figures. main.ts is the command; the integration
// test calls this on a tiny world.
import { ARMS } from "./arms.ts";
import { figures, type Figures } from "./figures.ts";
import { localArm, serverArm, type ArmResult, type Connection } from "./simulate.ts";
import { buildWorld, type WorldSize } from "./world.ts";

export type Options = { size: WorldSize; seed: number; connection: Connection; tag: string; log?: (line: string) => void; verbose?: boolean; only?: string[] };

export async function provingGround({ size, seed, connection, tag, log = () => {}, verbose = false, only }: Options): Promise<{ arms: Figures[]; results: ArmResult[] }> {
  const world = buildWorld(seed, size);
  const results: ArmResult[] = [];
  // Floor and oracle always run: every other arm's figures are relative to them.
  for (const arm of ARMS.filter((a) => !a.learning || !only || only.includes(a.name))) {
    log(`arm ${arm.name} (${arm.label})`);
    results.push(arm.learning ? await serverArm(world, arm, connection, tag, log, verbose) : localArm(world, arm));
  }
  return { arms: figures(results), results };
}
