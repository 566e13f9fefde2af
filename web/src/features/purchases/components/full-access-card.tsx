import { ShieldCheck } from 'lucide-react';

/** Product page, for a buyer who has paid (spec §2 Product detail); the files sit in the preview. */
export function FullAccessCard() {
  return (
    <section
      aria-labelledby="full-access-title"
      className="rounded-2xl bg-emerald-50 p-6 ring-1 ring-emerald-200 sm:p-8"
    >
      <div className="flex items-center gap-3">
        <ShieldCheck className="size-7 text-emerald-600" aria-hidden="true" />
        <h2 id="full-access-title" className="text-lg font-semibold text-emerald-900">
          You have full access to this product
        </h2>
      </div>
      <p className="mt-2 text-sm text-emerald-800">Download links are valid for 1 hour.</p>
    </section>
  );
}
