import type { DiscountCode } from '@lockdrop/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { useDiscountCodes } from '../api/get-discount-codes';
import { useSaveDiscountCode } from '../api/save-discount-code';
import { emptyValues, toRequest, valuesOf } from '../lib/discount-form';
import type { CurrencySelectComponent, SellerProduct } from '../types';
import { DiscountForm } from './discount-form';
import { DiscountList } from './discount-list';

interface DiscountsScreenProps {
  /** The seller's products, from the products feature through the route. */
  products: UseQueryResult<SellerProduct[]>;
  CurrencySelect: CurrencySelectComponent;
}

const panelClass = 'rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200';

/** The form's panel, brought into view with its first field focused when it opens. */
function FormPanel({ title, children }: { title: string; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    ref.current?.querySelector('input')?.focus({ preventScroll: true });
  }, []);
  return (
    <section ref={ref} className={`${panelClass} scroll-mt-24`} aria-label={title}>
      <h2 className="mb-4 text-lg font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

/** /dashboard/discounts: the seller's discount codes, their uses and revenue, and the form. */
export function DiscountsScreen({ products, CurrencySelect }: DiscountsScreenProps) {
  const codes = useDiscountCodes();
  // undefined: the form is closed; null: a new code; else the code being edited.
  const [editing, setEditing] = useState<DiscountCode | null | undefined>(undefined);
  const save = useSaveDiscountCode({ onSuccess: () => setEditing(undefined) });
  const formOpen = editing !== undefined;
  const create = () => setEditing(null);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Discounts</h1>
        {!formOpen && codes.data?.length ? (
          <Button size="sm" onClick={create}>
            <Plus className="size-4" aria-hidden="true" /> New code
          </Button>
        ) : null}
      </div>
      {formOpen && (
        <FormPanel
          key={editing?.id ?? 'new'}
          title={editing ? `Edit ${editing.code}` : 'New discount code'}
        >
          <DiscountForm
            initial={editing ? valuesOf(editing) : emptyValues(products.data?.[0]?.currency)}
            editing={editing !== null}
            products={products.data ?? []}
            CurrencySelect={CurrencySelect}
            busy={save.isPending}
            onSubmit={(values) => save.mutate({ id: editing?.id ?? null, code: toRequest(values) })}
            onCancel={() => setEditing(undefined)}
          />
        </FormPanel>
      )}
      <section className={panelClass} aria-label="Your discount codes">
        <DiscountList onCreate={formOpen ? undefined : create} onEdit={setEditing} />
      </section>
    </div>
  );
}
