import { PurchaseFiles } from './purchase-files';

/** What a buyer bought, then its files: the success page and the receipt link show the same. */
export function PurchaseSummary({
  purchaseId,
  details,
}: {
  purchaseId: string;
  /** Term and value pairs, e.g. ['Product', 'Preset pack']. */
  details: [string, string][];
}) {
  return (
    <>
      <dl className="mt-8 divide-y divide-slate-100 rounded-xl bg-slate-50 px-5 ring-1 ring-slate-200">
        {details.map(([term, value]) => (
          <div key={term} className="flex justify-between gap-4 py-3 text-sm">
            <dt className="text-slate-600">{term}</dt>
            <dd className="min-w-0 truncate text-right font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-6">
        <PurchaseFiles purchaseId={purchaseId} />
      </div>
      <p className="mt-3 text-center text-sm text-slate-500">Download links are valid for 1 hour</p>
    </>
  );
}
