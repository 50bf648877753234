// The proving ground as a function: a world of a size and seed, every arm against one running
// Proctor (one agent per arm, named by `tag`), the figures. The server arms run side by side:
// each arm's calls are in order and its agent's state is its own (ledger procedures, skills,
// term weights), so running them together changes no figure, only the wall time. main.ts is
// the command; the integration test calls this on a tiny world.
import { ARMS } from "./arms.ts";
import { figures, type Figures } from "./figures.ts";
import { localArm, serverArm, type ArmResult, type Connection } from "./simulate.ts";
import { buildWorld, type WorldSize } from "./world.ts";

export type Options = {
  size: WorldSize;
  seed: number;
  connection: Connection;
  tag: string;
  log?: (line: string) => void;
  /** Each server arm's skills at its end, and the last round's probes with the skills they got. */
  verbose?: boolean;
  /** Only these server arms (floor and oracle always run: the other figures are relative to them). */
  only?: string[];
};

export async function provingGround({ size, seed, connection, tag, log = () => {}, verbose = false, only }: Options): Promise<{ arms: Figures[]; results: ArmResult[] }> {
  const world = buildWorld(seed, size);
  const arms = ARMS.filter((a) => !a.learning || !only || only.includes(a.name));
  const results = await Promise.all(arms.map(async (arm) => (arm.learning ? serverArm(world, arm, connection, tag, log, verbose) : localArm(world, arm))));
  return { arms: figures(results), results };
}
