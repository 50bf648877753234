// Shared field styling for the settings forms.
export const fieldClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-normal focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-700 dark:bg-slate-950";
export const labelClass = "block text-sm font-medium";
