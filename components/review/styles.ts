// Shared class names of the review pages.
export const linkClass = "rounded font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300";
export const panelClass = "rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-950";
export const sectionTitle = "mb-2 text-sm font-semibold text-slate-700 dark:text-slate-300";
export const pct = (r: number | null | undefined) => (r === null || r === undefined || Number.isNaN(r) ? "—" : `${Math.round(r * 100)}%`);
export const shortHash = (h: string) => h.slice(0, 12);
