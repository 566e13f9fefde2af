import { useState } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { Table, type Column } from '@/components/ui/table';
import { LoadError, Loading, Panel } from '@/components/ui/panel';
import { useProductFigures, type ProductFigures } from '../api/get-product-figures';
import { formatCount, formatPercent } from '../lib/format';
import { EmptyState } from './empty-state';
import { ProductDailyPanel } from './product-daily-panel';
import { RevenueList } from './revenue-list';
import { StatCards } from './stat-cards';

const PERIODS = [7, 30, 90, 365];

const count = (
  header: string,
  figure: (product: ProductFigures) => number,
): Column<ProductFigures> => ({
  header,
  align: 'right',
  cell: (product) => formatCount(figure(product)),
});

const productColumns: Column<ProductFigures>[] = [
  {
    header: 'Product',
    className: 'font-medium text-slate-900',
    cell: (product) => (
      <>
        {product.title}
        {product.deleted && <span className="ml-2 text-xs text-slate-500">(deleted)</span>}
      </>
    ),
  },
  count('Views', (product) => product.views),
  count('Visitors', (product) => product.uniqueVisitors),
  count('Checkouts', (product) => product.checkoutsStarted),
  count('Sales', (product) => product.sales),
  count('Refunds', (product) => product.refunds),
  count('Downloads', (product) => product.downloads),
  {
    header: 'Unlock rate',
    align: 'right',
    cell: (product) => formatPercent(product.unlockRate),
  },
  {
    header: 'Revenue',
    align: 'right',
    cell: (product) => <RevenueList revenue={product.revenue} />,
  },
];

/** /dashboard/analytics: the overview, per-product figures and a daily series. */
export function AnalyticsScreen() {
  const [days, setDays] = useState(30);
  const products = useProductFigures(days);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Analytics</h1>
        <label className="flex items-center gap-2 text-sm font-medium text-slate-700">
          Period
          <select
            className="rounded-md border border-slate-300 px-3 py-2"
            value={days}
            onChange={(event) => setDays(Number(event.target.value))}
          >
            {PERIODS.map((period) => (
              <option key={period} value={period}>
                Last {period} days
              </option>
            ))}
          </select>
        </label>
      </div>
      <StatCards days={days} />
      <Panel title="Per product">
        {products.isPending ? (
          <Loading label="Loading per-product figures" />
        ) : products.isError ? (
          <LoadError what="per-product figures" />
        ) : products.data.length === 0 ? (
          <EmptyState
            title="No products to measure yet"
            action={
              <ButtonLink to={paths.products.create.getHref()} size="sm">
                Create product
              </ButtonLink>
            }
          >
            Once your product pages get visitors, their views, sales and downloads are counted here.
          </EmptyState>
        ) : (
          <Table
            columns={productColumns}
            rows={products.data}
            rowKey={(product) => product.productId}
            minWidthClass="min-w-[48rem]"
          />
        )}
      </Panel>
      {products.data && products.data.length > 0 && (
        <ProductDailyPanel products={products.data} days={days} />
      )}
      <p className="text-xs text-slate-500">
        Days are UTC. Revenue is your earnings after platform and processor fees, minus refunds, per
        currency. Unlock rate is sales per unique visitor of your product pages.
      </p>
    </div>
  );
}
