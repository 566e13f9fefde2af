import type { DiscountCode } from '@lockdrop/contracts';
import { Button } from '@/components/ui/button';
import { Table, type Column } from '@/components/ui/table';
import { appliesTo, formatDateTime, usesOf } from '../lib/format';
import { ActiveSwitch } from './active-switch';
import { DeleteControl } from './delete-control';
import { StateBadge } from './state-badge';

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

function Uses({ code }: { code: DiscountCode }) {
  return (
    <>
      <span className="block" data-figure="uses">
        {usesOf(code)}
      </span>
      <span className="block text-xs text-slate-500" data-figure="reserved">
        {code.reserved} reserved
      </span>
      {code.maxUsesPerBuyer !== null && (
        <span className="block text-xs text-slate-500">{code.maxUsesPerBuyer} per buyer</span>
      )}
    </>
  );
}

function Dates({ code }: { code: DiscountCode }) {
  if (!code.startsAt && !code.endsAt) return 'No end date';
  return (
    <>
      <span className="block">From {formatDateTime(code.startsAt)}</span>
      <span className="block">Until {formatDateTime(code.endsAt)}</span>
    </>
  );
}

const columns = (onEdit: (code: DiscountCode) => void): Column<DiscountCode>[] => [
  {
    header: 'Code',
    rowHeader: true,
    cell: (code) => (
      <>
        <span className="font-mono font-semibold text-slate-900">{code.code}</span>
        <span className="block text-xs text-slate-500">{appliesTo(code)}</span>
      </>
    ),
  },
  { header: 'Discount', cell: (code) => code.label },
  { header: 'Status', cell: (code) => <StateBadge state={code.state} /> },
  { header: 'Uses', className: 'whitespace-nowrap', cell: (code) => <Uses code={code} /> },
  { header: 'Revenue', cell: (code) => <Revenue revenue={code.revenue} /> },
  {
    header: 'Dates',
    className: 'text-xs whitespace-nowrap text-slate-600',
    cell: (code) => <Dates code={code} />,
  },
  { header: 'Active', cell: (code) => <ActiveSwitch code={code} /> },
  {
    header: 'Actions',
    hideHeader: true,
    cell: (code) => (
      <div className="flex justify-end gap-1">
        <Button
          variant="secondary"
          size="sm"
          aria-label={`Edit ${code.code}`}
          onClick={() => onEdit(code)}
        >
          Edit
        </Button>
        <DeleteControl code={code} />
      </div>
    ),
  },
];

/** The seller's codes with how each has been used. */
export function DiscountTable({
  codes,
  onEdit,
}: {
  codes: DiscountCode[];
  onEdit: (code: DiscountCode) => void;
}) {
  return (
    <Table
      columns={columns(onEdit)}
      rows={codes}
      rowKey={(code) => code.id}
      rowData={(code) => ({ 'data-discount-code': code.code })}
      minWidthClass="min-w-[52rem]"
    />
  );
}
