import type { PayoutDestination } from '@lockdrop/contracts';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { useSession } from '@/features/auth';
import { LoadError, Loading } from '@/components/ui/panel';
import { usePayoutDestination } from '../api/payouts';
import { DestinationForm } from './destination-form';

const when = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );

export function SavedDestination({ destination }: { destination: PayoutDestination }) {
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-600">Payouts go to</p>
      <p className="text-base font-semibold text-slate-900" data-testid="payout-destination">
        {destination.label}
      </p>
      {destination.accountName && (
        <p className="text-sm text-slate-600">Account holder: {destination.accountName}</p>
      )}
      {destination.payoutsHeldUntil && (
        <p role="status" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800">
          Your payout details changed recently, so payouts are paused until{' '}
          {when(destination.payoutsHeldUntil)}.
        </p>
      )}
    </div>
  );
}

/** Says so when a seller chose a method before details moved to payments and must confirm them. */
export function ConfirmPayoutNotice({ linkToSettings = true }: { linkToSettings?: boolean }) {
  const { profile } = useSession();
  const destination = usePayoutDestination();
  if (!profile?.payoutMethod || destination.isPending || destination.data) return null;
  if (destination.isError) return null;
  return (
    <p role="status" className="rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-800">
      Confirm your payout details to get paid.
      {linkToSettings && (
        <>
          {' '}
          <Link to={paths.settings.getHref()} className="font-medium underline">
            Open settings
          </Link>
        </>
      )}
    </p>
  );
}

/** /settings and onboarding: the saved destination with Change, or the form. */
export function PayoutDestinationCard({ onSaved }: { onSaved?: () => void }) {
  const destination = usePayoutDestination();
  const [editing, setEditing] = useState(false);
  if (destination.isPending) return <Loading label="Loading your payout details" />;
  if (destination.isError) return <LoadError what="your payout details" />;
  if (destination.data && !editing)
    return (
      <div className="flex flex-wrap items-start justify-between gap-4">
        <SavedDestination destination={destination.data} />
        <Button variant="secondary" onClick={() => setEditing(true)}>
          Change
        </Button>
      </div>
    );
  return (
    <div className="space-y-4">
      <ConfirmPayoutNotice linkToSettings={false} />
      <DestinationForm
        current={destination.data}
        onSaved={() => {
          setEditing(false);
          onSaved?.();
        }}
        onCancel={destination.data ? () => setEditing(false) : undefined}
      />
    </div>
  );
}
