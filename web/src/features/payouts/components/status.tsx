/** What a payouts panel shows while it loads, and when it could not. */
export function Loading({ label }: { label: string }) {
  return (
    <div
      className="h-24 animate-pulse rounded-lg bg-slate-100"
      aria-busy="true"
      aria-label={label}
    />
  );
}

export function Failed({ what }: { what: string }) {
  return (
    <p role="alert" className="rounded-lg bg-rose-50 px-4 py-3 text-sm text-rose-700">
      Could not load {what}. Please refresh the page to try again.
    </p>
  );
}
