// What the proving ground knows about an arm's skills (never shown to the model): the task a
// skill is about (the world's lookup from its description and trigger queries), the procedure
// its text carries, whether it is harmful in a round (following it is expected to do worse than
// the unaided model on its task's requests), activations, and the runs a harmful active skill
// reached until it was no longer active.
import type { SkillView } from "./api.ts";
import { expectedSuccess, procedureInText } from "./model.ts";
import { familyOfText, type World } from "./world.ts";

export type SkillInfo = { id: string; family: number | null; procedure: string[]; tokens: number; createdRound: number; everActive: boolean };

/** Injected tokens of a text: characters / 4 (the usual rule of thumb for English prose and code). */
export const tokensOf = (text: string) => Math.ceil(text.length / 4);

export class Library {
  readonly skills = new Map<string, SkillInfo>();
  private active = new Set<string>();
  activations = 0;
  harmfulActivations = 0;
  /** Harmful active skills being counted: runs (and ledger evaluations) that received them. */
  private harmOpen = new Map<string, { runs: number; evaluationsAtStart: number }>();
  readonly toDemote: { runs: number; evaluations: number }[] = [];

  constructor(private readonly world: World) {}

  info(skill: SkillView, round: number): SkillInfo {
    let info = this.skills.get(skill.skill_id);
    if (!info) {
      const family = familyOfText(this.world, `${skill.description} ${skill.queries.join(" ")}`);
      info = { id: skill.skill_id, family: family?.index ?? null, procedure: procedureInText(skill.content), tokens: tokensOf(skill.content), createdRound: round, everActive: false };
      this.skills.set(skill.skill_id, info);
    }
    return info;
  }

  harmful(info: SkillInfo, round: number): boolean {
    if (info.family === null) return true;
    return expectedSuccess(this.world, info.family, round, info.procedure) < expectedSuccess(this.world, info.family, round, null) - 1e-9;
  }

  /** Harmful for a run of `family`: harmful on its own task, or about another task (a misfire). */
  harmfulFor(id: string, family: number, round: number): boolean {
    const info = this.skills.get(id);
    return !info || info.family !== family || this.harmful(info, round);
  }

  /** A snapshot of the skills (after the round's decisions, or at a round's start); `evaluations` by skill so far. */
  observe(skills: SkillView[], round: number, evaluations: Map<string, number>) {
    const now = new Set<string>();
    for (const s of skills) {
      const info = this.info(s, round);
      if (s.status !== "active") continue;
      now.add(s.skill_id);
      info.everActive = true;
      if (!this.active.has(s.skill_id)) {
        this.activations++;
        if (this.harmful(info, round)) this.harmfulActivations++;
      }
      if (this.harmful(info, round) && !this.harmOpen.has(s.skill_id)) this.harmOpen.set(s.skill_id, { runs: 0, evaluationsAtStart: evaluations.get(s.skill_id) ?? 0 });
    }
    for (const [id, open] of this.harmOpen) {
      if (now.has(id)) continue;
      this.toDemote.push({ runs: open.runs, evaluations: (evaluations.get(id) ?? 0) - open.evaluationsAtStart });
      this.harmOpen.delete(id);
    }
    this.active = now;
  }

  /** A fleet run received these skills. */
  received(ids: string[]) {
    for (const id of ids) {
      const open = this.harmOpen.get(id);
      if (open) open.runs++;
    }
  }

  /** Harmful skills still active at the end (never demoted). */
  neverDemoted(): number {
    return this.harmOpen.size;
  }

  candidates() {
    const all = [...this.skills.values()];
    const harmfulAtCreation = all.filter((i) => this.harmful(i, i.createdRound));
    const helpfulNeverActive = all.filter((i) => !this.harmful(i, i.createdRound) && !i.everActive);
    return { candidates: all.length, harmful: harmfulAtCreation.length, helpfulNeverActivated: helpfulNeverActive.length };
  }
}
