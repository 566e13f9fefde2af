import type { DiscountCode } from '@lockdrop/contracts';
import { TicketPercent } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { LoadError, Loading } from '@/components/ui/panel';
import { useDiscountCodes } from '../api/get-discount-codes';
import { DiscountTable } from './discount-table';

interface DiscountListProps {
  /** Absent while the form is open. */
  onCreate?: () => void;
  onEdit: (code: DiscountCode) => void;
}

/** The seller's codes, or why there are none to show. */
export function DiscountList({ onCreate, onEdit }: DiscountListProps) {
  const codes = useDiscountCodes();
  if (codes.isPending) return <Loading label="Loading your discount codes" />;
  if (codes.isError) return <LoadError what="your discount codes" />;
  if (codes.data.length > 0) return <DiscountTable codes={codes.data} onEdit={onEdit} />;
  return (
    <div className="rounded-lg border border-dashed border-slate-300 px-6 py-10 text-center">
      <TicketPercent className="mx-auto size-10 text-indigo-500" aria-hidden="true" />
      <p className="mt-3 font-medium text-slate-900">No discount codes yet</p>
      <p className="mt-1 text-sm text-slate-600">
        Share a code like LAUNCH20 with your audience: it takes a percentage or an amount off your
        products at checkout.
      </p>
      {onCreate && (
        <Button size="sm" className="mt-4" onClick={onCreate}>
          Create your first code
        </Button>
      )}
    </div>
  );
}
