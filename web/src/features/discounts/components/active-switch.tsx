import type { DiscountCode } from '@lockdrop/contracts';
import { useSaveDiscountCode } from '../api/save-discount-code';
import { requestOf } from '../lib/discount-form';

/** Turns a code on or off in place (the whole code goes back with `active` flipped). */
export function ActiveSwitch({ code }: { code: DiscountCode }) {
  const save = useSaveDiscountCode();
  const active = save.isPending ? !code.active : code.active;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={active}
      aria-label={`${code.code} active`}
      disabled={save.isPending}
      onClick={() => save.mutate({ id: code.id, code: { ...requestOf(code), active: !active } })}
      className={`relative inline-flex h-6 w-11 flex-none items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60 ${active ? 'bg-indigo-600' : 'bg-slate-300'}`}
    >
      <span
        className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${active ? 'translate-x-5' : 'translate-x-0.5'}`}
      />
    </button>
  );
}
