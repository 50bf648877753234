import Link from "@/components/ui/link";

// Inspect one account (never a shared persona): a plain GET form on user_id, beside the list of accounts.
export function AccountLookup({ userId }: { userId: string }) {
  return (
    <form method="get" action="/persona-evolution" className="flex min-w-0 flex-wrap items-end gap-2" role="search">
      <label className="flex min-w-0 flex-1 basis-56 flex-col gap-1 text-sm font-medium">
        Account ID
        <input
          id="pe-account"
          name="user_id"
          required
          maxLength={128}
          defaultValue={userId}
          placeholder="The account's user_id, as the agent sends it"
          className="w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-normal dark:border-slate-700 dark:bg-slate-900"
        />
      </label>
      <button
        type="submit"
        className="rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
      >
        Inspect account
      </button>
      <p className="w-full text-xs text-slate-500 dark:text-slate-400">
        Every account seen in runs and conversations is listed on{" "}
        <Link href="/accounts" className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
          Accounts
        </Link>
        ; account IDs also appear in{" "}
        <Link href="/traces" className="font-medium text-indigo-700 hover:underline dark:text-indigo-300">
          Traces
        </Link>
        .
      </p>
    </form>
  );
}
