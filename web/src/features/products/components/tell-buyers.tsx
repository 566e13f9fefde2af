import { useId } from 'react';
import { minutesUntil, tellBuyersAvailableAt } from '../lib/product-files';

interface TellBuyersProps {
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** When past buyers were last e-mailed about this product's new files. */
  buyersToldAt: string | null;
}

const timeFormat = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

/** "Tell my buyers": e-mails everyone who bought the product, at most once an hour. */
export function TellBuyers({ checked, onChange, buyersToldAt }: TellBuyersProps) {
  const id = useId();
  const now = new Date();
  const availableAt = tellBuyersAvailableAt(buyersToldAt, now);
  return (
    <div>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-900 has-disabled:text-slate-500">
        <input
          type="checkbox"
          checked={checked && availableAt === null}
          disabled={availableAt !== null}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={`${id}-hint`}
          className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600"
        />
        Tell my buyers
      </label>
      <p id={`${id}-hint`} className="mt-1 pl-6 text-sm text-slate-600">
        {availableAt === null
          ? 'Everyone who bought this product gets an e-mail saying it has new files.'
          : `You told your buyers about new files at ${timeFormat.format(new Date(buyersToldAt!))}. You can tell them again ${minutesUntil(availableAt, now)}, at ${timeFormat.format(availableAt)}.`}
      </p>
    </div>
  );
}
