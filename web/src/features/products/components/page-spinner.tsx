/** A screen tall, like the layout's fallback: the footer must not show and then jump away. */
export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="flex min-h-svh items-center justify-center" role="status" aria-label={label}>
      <span className="size-8 animate-spin rounded-full border-4 border-indigo-200 border-t-indigo-600" />
    </div>
  );
}
