import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import {
  draftOf,
  payoutDetailsOf,
  PayoutMethodFields,
  useSession,
  useUpdateProfile,
} from '@/features/auth';
import { notify } from '@/lib/toast';
import { SettingsCard } from './settings-card';

export function PayoutSection() {
  const { profile } = useSession();
  const update = useUpdateProfile();
  const [draft, setDraft] = useState(() => draftOf(profile?.payoutDetails));
  const [errors, setErrors] = useState<Record<string, string>>({});

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = payoutDetailsOf(draft);
    if (!result) return notify.error('Please choose a payout method');
    if ('missing' in result) return setErrors(result.missing);
    setErrors({});
    update.mutate(
      { payoutDetails: result.details },
      {
        onSuccess: () => notify.success('Payout method saved'),
        onError: (error) => notify.error(error, 'Failed to save your payout method'),
      },
    );
  }

  return (
    <SettingsCard id="settings-payout" title="Payouts" description="Where your earnings are sent.">
      <form noValidate onSubmit={onSubmit} aria-label="Payout method" className="space-y-6">
        <PayoutMethodFields draft={draft} onChange={setDraft} errors={errors} />
        <Button type="submit" disabled={!draft.method || update.isPending}>
          {update.isPending ? 'Saving...' : 'Save payout method'}
        </Button>
      </form>
    </SettingsCard>
  );
}
