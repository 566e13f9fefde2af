import { useState } from 'react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useProductFigures } from '../api/get-product-figures';
import { formatCount, formatPercent } from '../lib/format';
import { EmptyState, LoadError, Loading, Panel } from './empty-state';
import { ProductDailyPanel } from './product-daily-panel';
import { RevenueList } from './revenue-list';
import { StatCards } from './stat-cards';

const PERIODS = [7, 30, 90, 365];

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
          <div className="overflow-x-auto">
            <table className="w-full min-w-[48rem] text-left text-sm">
              <thead className="text-xs text-slate-500 uppercase">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Product
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Views
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Visitors
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Checkouts
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Sales
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Refunds
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Downloads
                  </th>
                  <th scope="col" className="py-2 pr-4 text-right">
                    Unlock rate
                  </th>
                  <th scope="col" className="py-2 text-right">
                    Revenue
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {products.data.map((product) => (
                  <tr key={product.productId}>
                    <td className="py-3 pr-4 font-medium text-slate-900">
                      {product.title}
                      {product.deleted && (
                        <span className="ml-2 text-xs text-slate-500">(deleted)</span>
                      )}
                    </td>
                    <td className="py-3 pr-4 text-right">{formatCount(product.views)}</td>
                    <td className="py-3 pr-4 text-right">{formatCount(product.uniqueVisitors)}</td>
                    <td className="py-3 pr-4 text-right">
                      {formatCount(product.checkoutsStarted)}
                    </td>
                    <td className="py-3 pr-4 text-right">{formatCount(product.sales)}</td>
                    <td className="py-3 pr-4 text-right">{formatCount(product.refunds)}</td>
                    <td className="py-3 pr-4 text-right">{formatCount(product.downloads)}</td>
                    <td className="py-3 pr-4 text-right">{formatPercent(product.unlockRate)}</td>
                    <td className="py-3 text-right">
                      <RevenueList revenue={product.revenue} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
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
