import { useId } from 'react';
import { notify } from '@/lib/toast';
import { useSaleEmails, useSetSaleEmails } from '../api/sale-emails';
import { SettingsCard } from './settings-card';

/** E-mails a seller can choose: "You made a sale" (on by default). */
export function NotificationsSection() {
  const saleEmails = useSaleEmails();
  const setSaleEmails = useSetSaleEmails();
  const checkboxId = useId();
  return (
    <SettingsCard
      id="notifications"
      title="E-mail notifications"
      description="Receipts, refunds and payout e-mails always go out; these you can choose."
    >
      {saleEmails.isError && <p className="text-sm text-rose-700">{saleEmails.error.message}</p>}
      <div className="flex items-start gap-3">
        <input
          id={checkboxId}
          type="checkbox"
          checked={saleEmails.data?.saleEmails ?? true}
          disabled={!saleEmails.data}
          onChange={(event) =>
            setSaleEmails.mutate(event.target.checked, {
              onSuccess: (settings) =>
                notify.success(
                  settings.saleEmails ? 'Sale e-mails turned on' : 'Sale e-mails turned off',
                ),
              onError: (error) => notify.error(error, 'Could not save your e-mail setting'),
            })
          }
          className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600"
        />
        <label htmlFor={checkboxId} className="text-sm text-slate-700">
          <span className="font-medium text-slate-900">E-mail me when I make a sale</span>
          <span className="block text-slate-500">
            A &ldquo;You made a sale&rdquo; e-mail with the product, the buyer and what you earn.
            When sales come in quickly, the ones after it arrive together, one e-mail a minute.
          </span>
        </label>
      </div>
    </SettingsCard>
  );
}
