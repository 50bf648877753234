// Status badges with fixed color meaning across the console (skills, reviews, ledger, runs).
const TONES = {
  gray: "bg-slate-100 text-slate-700 ring-slate-300 dark:bg-slate-800 dark:text-slate-300 dark:ring-slate-600",
  violet: "bg-violet-100 text-violet-800 ring-violet-300 dark:bg-violet-950 dark:text-violet-300 dark:ring-violet-800",
  green: "bg-emerald-100 text-emerald-800 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-300 dark:ring-emerald-800",
  amber: "bg-amber-100 text-amber-800 ring-amber-300 dark:bg-amber-950 dark:text-amber-300 dark:ring-amber-800",
  red: "bg-red-100 text-red-800 ring-red-300 dark:bg-red-950 dark:text-red-300 dark:ring-red-800",
  blue: "bg-sky-100 text-sky-800 ring-sky-300 dark:bg-sky-950 dark:text-sky-300 dark:ring-sky-800",
} as const;

export type BadgeTone = keyof typeof TONES;

/** The one mapping from a status word to its color. */
export const STATUS_TONE: Record<string, BadgeTone> = {
  candidate: "gray",
  shadow: "violet",
  active: "green",
  deprecated: "amber",
  demoted: "red",
  pending: "blue",
  approved: "green",
  dismissed: "gray",
  rejected: "red",
  suspended: "amber",
  success: "green",
  failure: "red",
  revoked: "gray",
  expired: "amber",
  inactive: "gray",
  admin: "violet",
  viewer: "gray",
  draft: "gray",
  running: "blue",
  completed: "green",
  cancelled: "amber",
  pass: "green",
  fail: "red",
};

export function Badge({ status, tone, children }: { status?: string; tone?: BadgeTone; children?: React.ReactNode }) {
  const t = tone ?? STATUS_TONE[(status ?? "").toLowerCase()] ?? "gray";
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[t]}`}>
      {children ?? status?.toLowerCase()}
    </span>
  );
}
