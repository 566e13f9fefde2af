import {
  bankAccountSchema,
  payoutDestinationInputSchema,
  type PayoutDestination,
  type PayoutDestinationInput,
  type PayoutMethod,
} from '@lockdrop/contracts';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/input';
import { TextField } from '@/components/ui/text-field';
import { REAUTHENTICATION_REQUIRED, ReauthenticateDialog, useUpdateProfile } from '@/features/auth';
import { notify } from '@/lib/toast';
import { useBanks, useResolveAccount, useSaveDestination } from '../api/payouts';
import { isChoosable, payoutOptions } from '../lib/methods';

type Values = Record<string, string>;

/** Field errors by name from a zod error, first message per field. */
function fieldErrors(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const name = String(issue.path[0] ?? 'form');
    errors[name] ??= issue.message;
  }
  return errors;
}

interface DestinationFormProps {
  /** The destination being replaced, if any: its method is preselected. */
  current?: PayoutDestination | null;
  onSaved?: (destination: PayoutDestination) => void;
  onCancel?: () => void;
}

/**
 * Where payouts go (onboarding step 2 and /settings). A bank account is checked with the
 * provider first and its holder's name shown for the seller to confirm before it can be saved;
 * Payoneer and Wise take the account's e-mail (and Wise its account id).
 */
export function DestinationForm({ current, onSaved, onCancel }: DestinationFormProps) {
  const name = useId();
  const [method, setMethod] = useState<PayoutMethod | null>(current?.method ?? null);
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [resolvedName, setResolvedName] = useState<string | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  /** A save that identity's re-authentication stopped: sent again once the seller confirms. */
  const [awaitingProof, setAwaitingProof] = useState<PayoutDestinationInput | null>(null);
  const banks = useBanks(method === 'bank');
  const resolve = useResolveAccount();
  const save = useSaveDestination();
  const updateProfile = useUpdateProfile();

  const set = (field: string, value: string) => {
    setValues((before) => ({ ...before, [field]: value }));
    if (field === 'bankCode' || field === 'accountNumber') {
      setResolvedName(null);
      setConfirmed(false);
    }
  };

  function verifyAccount() {
    const account = bankAccountSchema.safeParse(values);
    if (!account.success) return setErrors(fieldErrors(account.error.issues));
    setErrors({});
    resolve.mutate(account.data, {
      onSuccess: (accountName) => setResolvedName(accountName),
      onError: (error) => setErrors({ accountNumber: error.message }),
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!method) return;
    if (method === 'bank' && (!resolvedName || !confirmed)) return verifyAccount();
    const input = payoutDestinationInputSchema.safeParse({
      method,
      ...values,
      ...(method === 'bank' ? { accountName: resolvedName } : {}),
    });
    if (!input.success) return setErrors(fieldErrors(input.error.issues));
    setErrors({});
    submit(input.data);
  }

  function submit(input: PayoutDestinationInput) {
    save.mutate(input, {
      onSuccess: (destination) => {
        // The profile remembers only which method is set; the details stay with payments.
        updateProfile.mutate({ payoutMethod: destination.method });
        notify.success('Payout details saved', destination.label);
        onSaved?.(destination);
      },
      onError: (error) => {
        if ('code' in error && error.code === REAUTHENTICATION_REQUIRED)
          return setAwaitingProof(input);
        if ('code' in error && error.code === 'account_name_mismatch') {
          setResolvedName(null);
          setConfirmed(false);
        }
        setErrors({ form: error.message });
      },
    });
  }

  const bankReady = method === 'bank' && resolvedName !== null && confirmed;
  return (
    <>
      <form noValidate onSubmit={onSubmit} aria-label="Payout details" className="space-y-6">
        <fieldset>
          <legend className="text-sm font-medium text-slate-900">Payout method</legend>
          <div className="mt-3 grid gap-3 sm:grid-cols-2">
            {payoutOptions.map((option) => {
              const checked = method === option.method;
              return (
                <label
                  key={option.method}
                  className={`flex items-start gap-3 rounded-xl p-4 ring-1 ${option.comingSoon ? 'cursor-not-allowed bg-slate-50 opacity-70 ring-slate-200' : checked ? 'cursor-pointer bg-indigo-50 ring-2 ring-indigo-600' : 'cursor-pointer bg-white ring-slate-200 hover:ring-slate-300'}`}
                >
                  <input
                    type="radio"
                    name={name}
                    value={option.method}
                    checked={checked}
                    disabled={option.comingSoon}
                    onChange={() => {
                      if (!isChoosable(option.method)) return;
                      setMethod(option.method);
                      setValues({});
                      setErrors({});
                      setResolvedName(null);
                      setConfirmed(false);
                    }}
                    className="mt-1 accent-indigo-600"
                  />
                  <span>
                    <span className="block text-sm font-semibold text-slate-900">
                      {option.label}
                      {option.comingSoon && (
                        <span className="ml-2 rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-600">
                          Coming soon
                        </span>
                      )}
                    </span>
                    {!option.comingSoon && (
                      <span className="block text-sm text-slate-600">{option.description}</span>
                    )}
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>

        {method === 'bank' && (
          <div className="space-y-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <Field label="Bank" error={errors.bankCode}>
                <Select
                  name="bankCode"
                  value={values.bankCode ?? ''}
                  onChange={(event) => set('bankCode', event.target.value)}
                  disabled={banks.isPending}
                >
                  <option value="">
                    {banks.isPending ? 'Loading banks…' : 'Choose your bank'}
                  </option>
                  {banks.data?.map((bank) => (
                    <option key={bank.code} value={bank.code}>
                      {bank.name}
                    </option>
                  ))}
                </Select>
                {banks.isError && (
                  <p role="alert" className="mt-2 text-sm text-rose-700">
                    Could not load the bank list. Please try again.
                  </p>
                )}
              </Field>
              <TextField
                label="Account number"
                name="accountNumber"
                inputMode="numeric"
                autoComplete="off"
                maxLength={10}
                value={values.accountNumber ?? ''}
                error={errors.accountNumber}
                hint="10 digits (NUBAN)"
                onChange={(event) => set('accountNumber', event.target.value.replace(/\D/g, ''))}
              />
            </div>
            {resolvedName ? (
              <div className="rounded-xl bg-emerald-50 p-4 ring-1 ring-emerald-200">
                <p className="text-sm text-slate-700">
                  The bank says this account belongs to{' '}
                  <strong className="text-slate-900" data-testid="resolved-account-name">
                    {resolvedName}
                  </strong>
                  .
                </p>
                <label className="mt-3 flex items-center gap-2 text-sm font-medium text-slate-900">
                  <input
                    type="checkbox"
                    checked={confirmed}
                    onChange={(event) => setConfirmed(event.target.checked)}
                    className="accent-indigo-600"
                  />
                  Yes, this is my account
                </label>
              </div>
            ) : (
              <Button
                type="button"
                variant="secondary"
                onClick={verifyAccount}
                disabled={resolve.isPending}
              >
                {resolve.isPending ? 'Checking account...' : 'Verify account'}
              </Button>
            )}
          </div>
        )}

        {(method === 'payoneer' || method === 'wise') && (
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              label={method === 'wise' ? 'Wise e-mail' : 'Payoneer e-mail'}
              name="email"
              type="email"
              autoComplete="email"
              value={values.email ?? ''}
              error={errors.email}
              onChange={(event) => set('email', event.target.value)}
            />
            {method === 'wise' && (
              <TextField
                label="Wise account ID"
                name="accountId"
                inputMode="numeric"
                value={values.accountId ?? ''}
                error={errors.accountId}
                onChange={(event) => set('accountId', event.target.value)}
              />
            )}
          </div>
        )}

        {errors.form && (
          <p role="alert" className="rounded-lg bg-rose-50 px-4 py-3 text-sm text-rose-700">
            {errors.form}
          </p>
        )}
        <p className="text-sm text-slate-600">
          {current
            ? 'Changing your payout details may ask for your password again, e-mails you and pauses payouts for a while, so nobody else can redirect your earnings.'
            : 'Saving may ask for your password again and e-mails you; if you already have earnings, payouts pause for a while first, so nobody else can redirect them.'}
        </p>
        <div className="flex flex-wrap gap-3">
          <Button
            type="submit"
            disabled={!method || save.isPending || (method === 'bank' && !bankReady)}
          >
            {save.isPending ? 'Saving...' : 'Save payout details'}
          </Button>
          {onCancel && (
            <Button type="button" variant="ghost" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </div>
      </form>
      <ReauthenticateDialog
        open={awaitingProof !== null}
        purpose={current ? 'change where your payouts go' : 'add where your payouts go'}
        onCancel={() => setAwaitingProof(null)}
        onConfirmed={() => {
          const pending = awaitingProof;
          setAwaitingProof(null);
          if (pending) submit(pending);
        }}
      />
    </>
  );
}
