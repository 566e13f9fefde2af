import type { DiscountCode } from '@lockdrop/contracts';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useDeleteDiscountCode } from '../api/delete-discount-code';

/** Delete, after a confirmation; a code that was used is refused with the server's words. */
export function DeleteControl({ code }: { code: DiscountCode }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteDiscountCode();
  if (!confirming) {
    return (
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Delete ${code.code}`}
        onClick={() => setConfirming(true)}
      >
        Delete
      </Button>
    );
  }
  return (
    <div role="group" aria-label={`Confirm deleting ${code.code}`} className="flex gap-2">
      <Button size="sm" variant="ghost" onClick={() => setConfirming(false)}>
        Keep
      </Button>
      <Button
        size="sm"
        disabled={remove.isPending}
        onClick={() => remove.mutate(code.id, { onSettled: () => setConfirming(false) })}
      >
        {remove.isPending ? 'Deleting...' : 'Confirm delete'}
      </Button>
    </div>
  );
}
