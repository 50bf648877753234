// Multi-step undo: which applied change the next undo reverts. Each undo entry reverted the newest
// applied change not yet reverted, so walking the history in version order as a stack (an applied
// change pushes, an undo pops) leaves the next one on top. Pruned history only removes a prefix,
// and an undo whose change was pruned pops nothing, so the walk stays exact on what is retained.

/** The applied change the next undo reverts, or null when every retained change is reverted (back to v1). */
export function changeToUndo<E>(historyByVersion: readonly E[], isUndo: (entry: E) => boolean): E | null {
  const applied: E[] = [];
  for (const entry of historyByVersion) {
    if (isUndo(entry)) applied.pop();
    else applied.push(entry);
  }
  return applied.at(-1) ?? null;
}
