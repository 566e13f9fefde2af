import { useId } from 'react';
import { payoutFields, payoutOptions, type PayoutDraft, type PayoutMethod } from '../lib/payout';
import { Field } from './field';

interface PayoutMethodFieldsProps {
  draft: PayoutDraft;
  onChange: (draft: PayoutDraft) => void;
  errors?: Record<string, string>;
}

/** Choose how to be paid (settings and onboarding step 2). */
export function PayoutMethodFields({ draft, onChange, errors = {} }: PayoutMethodFieldsProps) {
  const name = useId();
  return (
    <div className="space-y-6">
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">Payout method</legend>
        <div className="mt-3 grid gap-3 sm:grid-cols-2">
          {payoutOptions.map((option) => {
            const checked = draft.method === option.method;
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
                  onChange={() => onChange({ method: option.method as PayoutMethod, values: {} })}
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
      {draft.method && (
        <div className="grid gap-5 sm:grid-cols-2">
          {payoutFields[draft.method].map((field) => (
            <Field
              key={`${draft.method}-${field.name}`}
              label={field.label}
              name={field.name}
              type={field.type ?? 'text'}
              value={draft.values[field.name] ?? ''}
              error={errors[field.name]}
              onChange={(event) =>
                onChange({
                  ...draft,
                  values: { ...draft.values, [field.name]: event.target.value },
                })
              }
            />
          ))}
        </div>
      )}
    </div>
  );
}
