import { formatMoney } from '@lockdrop/money';
import { PLANS, earningsBreakdown, formatBps } from '@lockdrop/plans';
import { useId, useState } from 'react';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import { useProcessorFeeBps } from '@/lib/payment-mode';
import { CALCULATOR_CURRENCIES, CALCULATOR_MIN_PRICE, priceToMinor } from '../lib/calculator';

export function EarningsCalculator() {
  const id = useId();
  const [price, setPrice] = useState('50');
  const [currency, setCurrency] = useState<string>('USD');
  const amountMinor = priceToMinor(price, currency);
  const processorFeeBps = useProcessorFeeBps();

  return (
    <section
      aria-labelledby={`${id}-title`}
      className="rounded-3xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-10"
    >
      <h2 id={`${id}-title`} className="text-2xl font-bold tracking-tight text-slate-900">
        Earnings calculator
      </h2>
      <p className="mt-2 text-slate-600">
        Enter a price to see the platform fee, the {formatBps(processorFeeBps)} payment processing
        fee and what you keep on each plan.
      </p>
      <div className="mt-8 grid gap-4 sm:grid-cols-[1fr_12rem]">
        <Field label="Product price">
          <Input
            name="price"
            type="number"
            inputMode="decimal"
            min={CALCULATOR_MIN_PRICE}
            step="0.01"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
          />
        </Field>
        <Field label="Currency">
          <Select
            name="currency"
            value={currency}
            onChange={(event) => setCurrency(event.target.value)}
          >
            {CALCULATOR_CURRENCIES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <ul
        aria-live="polite"
        data-calculator-results
        className="mt-8 grid gap-4 sm:grid-cols-2 xl:grid-cols-4"
      >
        {PLANS.map((plan) => {
          const breakdown = earningsBreakdown(plan, amountMinor, processorFeeBps);
          return (
            <li
              key={plan.id}
              data-calculator-plan={plan.id}
              className={`rounded-2xl p-5 ring-1 ${plan.popular ? 'bg-indigo-50/60 ring-indigo-200' : 'bg-slate-50 ring-slate-200'}`}
            >
              <h3 className="font-semibold text-slate-900">
                {plan.name}{' '}
                <span className="font-normal text-slate-600">
                  · {formatBps(plan.platformFeeBps)} fee
                </span>
              </h3>
              <dl className="mt-4 space-y-2 text-sm">
                <div className="flex justify-between gap-4">
                  <dt className="text-slate-600">Platform fee</dt>
                  <dd data-field="platform-fee" className="font-medium text-slate-900 tabular-nums">
                    {formatMoney(breakdown.platformFeeMinor, currency)}
                  </dd>
                </div>
                <div className="flex justify-between gap-4">
                  <dt className="text-slate-600">Processing fee</dt>
                  <dd
                    data-field="processor-fee"
                    className="font-medium text-slate-900 tabular-nums"
                  >
                    {formatMoney(breakdown.processorFeeMinor, currency)}
                  </dd>
                </div>
                <div className="flex justify-between gap-4 border-t border-slate-200 pt-2">
                  <dt className="font-medium text-slate-900">You earn</dt>
                  <dd
                    data-field="net"
                    className="text-base font-bold text-emerald-700 tabular-nums"
                  >
                    {formatMoney(breakdown.netMinor, currency)}
                  </dd>
                </div>
                <div className="flex justify-between gap-4">
                  <dt className="text-slate-600">You keep</dt>
                  <dd data-field="kept" className="font-medium text-slate-900 tabular-nums">
                    {formatBps(breakdown.keptBps)}
                  </dd>
                </div>
              </dl>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
