import type { DiscountCode } from '@lockdrop/contracts';
import { Button } from '@/components/ui/button';
import { appliesTo, formatDateTime, usesOf } from '../lib/format';
import { ActiveSwitch } from './active-switch';
import { DeleteControl } from './delete-control';
import { StateBadge } from './state-badge';

const COLUMNS = ['Code', 'Discount', 'Status', 'Uses', 'Revenue', 'Dates', 'Active'];

function Revenue({ revenue }: { revenue: DiscountCode['revenue'] }) {
  if (revenue.length === 0) return <span className="text-slate-500">—</span>;
  return (
    <span className="flex flex-col">
      {revenue.map((figure) => (
        <span key={figure.currency}>{figure.formatted}</span>
      ))}
    </span>
  );
}

function DiscountRow({ code, onEdit }: { code: DiscountCode; onEdit: () => void }) {
  return (
    <tr data-discount-code={code.code}>
      <th scope="row" className="py-3 pr-4 text-left font-normal">
        <span className="font-mono font-semibold text-slate-900">{code.code}</span>
        <span className="block text-xs text-slate-500">{appliesTo(code)}</span>
      </th>
      <td className="py-3 pr-4">{code.label}</td>
      <td className="py-3 pr-4">
        <StateBadge state={code.state} />
      </td>
      <td className="py-3 pr-4 whitespace-nowrap">
        <span className="block" data-figure="uses">
          {usesOf(code)}
        </span>
        <span className="block text-xs text-slate-500" data-figure="reserved">
          {code.reserved} reserved
        </span>
        {code.maxUsesPerBuyer !== null && (
          <span className="block text-xs text-slate-500">{code.maxUsesPerBuyer} per buyer</span>
        )}
      </td>
      <td className="py-3 pr-4">
        <Revenue revenue={code.revenue} />
      </td>
      <td className="py-3 pr-4 text-xs whitespace-nowrap text-slate-600">
        {code.startsAt || code.endsAt ? (
          <>
            <span className="block">From {formatDateTime(code.startsAt)}</span>
            <span className="block">Until {formatDateTime(code.endsAt)}</span>
          </>
        ) : (
          'No end date'
        )}
      </td>
      <td className="py-3 pr-4">
        <ActiveSwitch code={code} />
      </td>
      <td className="py-3">
        <div className="flex justify-end gap-1">
          <Button variant="secondary" size="sm" aria-label={`Edit ${code.code}`} onClick={onEdit}>
            Edit
          </Button>
          <DeleteControl code={code} />
        </div>
      </td>
    </tr>
  );
}

/** The seller's codes with how each has been used. */
export function DiscountTable({
  codes,
  onEdit,
}: {
  codes: DiscountCode[];
  onEdit: (code: DiscountCode) => void;
}) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[52rem] text-left text-sm">
        <thead className="text-xs text-slate-500 uppercase">
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col" className="py-2 pr-4">
                {column}
              </th>
            ))}
            <th scope="col" className="py-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {codes.map((code) => (
            <DiscountRow key={code.id} code={code} onEdit={() => onEdit(code)} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
