import { useActing } from '@/features/auth';

/**
 * Shown in the seller shell while the member is past the store's seats after a downgrade
 * (issue 28): what they can still do, and who decides.
 */
export function ReadOnlyNote() {
  const acting = useActing();
  if (!acting?.readOnly) return null;
  return (
    <p
      role="status"
      className="mx-3 mt-3 rounded-lg bg-amber-50 p-3 text-xs text-amber-900 ring-1 ring-amber-200"
      data-testid="read-only-note"
    >
      Read-only: {acting.storeName}&apos;s plan has fewer team seats than members. You have the
      accountant&apos;s read rights (sales, payouts, exports and analytics) until the owner chooses
      who stays.
    </p>
  );
}
