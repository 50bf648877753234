// Memory of a process tree, read from /proc (Linux): the benchmarks report the server's
// resident set before, during and after load.
import { readdirSync, readFileSync } from "node:fs";

export type Memory = { rssKb: number; hwmKb: number };

export function memoryOf(pid: number): Memory | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0);
    return { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
  } catch {
    return null;
  }
}

function parentOf(pid: number): number | null {
  try {
    // Field 4 of /proc/<pid>/stat, after the parenthesised command name (which may hold spaces).
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return null;
  }
}

/** The process in `rootPid`'s tree with the largest resident set: the server behind a launcher. */
export function largestDescendant(rootPid: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(Number(name));
    if (parent !== null) children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  let best = rootPid;
  let bestRss = memoryOf(rootPid)?.rssKb ?? 0;
  const queue = [...(children.get(rootPid) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    const rss = memoryOf(pid)?.rssKb ?? 0;
    if (rss > bestRss) [best, bestRss] = [pid, rss];
    queue.push(...(children.get(pid) ?? []));
  }
  return best;
}

/** Samples a process's RSS until stopped; the peak seen while load ran. */
export function sampleRss(pid: number, everyMs = 200) {
  let peakKb = 0;
  const timer = setInterval(() => {
    peakKb = Math.max(peakKb, memoryOf(pid)?.rssKb ?? 0);
  }, everyMs);
  return {
    stop(): number {
      clearInterval(timer);
      return Math.max(peakKb, memoryOf(pid)?.rssKb ?? 0);
    },
  };
}

export const mib = (kb: number) => `${(kb / 1024).toFixed(0)} MiB`;
