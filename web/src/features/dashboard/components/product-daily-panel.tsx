import { useState } from 'react';
import { useProductDaily, type DailyPoint } from '../api/get-product-daily';
import type { ProductFigures } from '../api/get-product-figures';
import { formatCount, formatMoney } from '../lib/format';
import { DailyChart, type ChartPoint } from './daily-chart';
import { LoadError, Loading, Panel } from '@/components/ui/panel';

type CountMetric = 'views' | 'sales' | 'downloads' | 'checkoutsStarted';
const COUNT_METRICS: { id: CountMetric; label: string }[] = [
  { id: 'views', label: 'Views' },
  { id: 'checkoutsStarted', label: 'Checkouts started' },
  { id: 'sales', label: 'Sales' },
  { id: 'downloads', label: 'Downloads' },
];

/** Metric ids: a count, or `revenue:<currency>` (one series per currency, never summed). */
function pointsOf(series: DailyPoint[], metric: string): ChartPoint[] {
  if (metric.startsWith('revenue:')) {
    const currency = metric.slice('revenue:'.length);
    return series.map((point) => ({
      day: point.day,
      value: point.revenue.find((figure) => figure.currency === currency)?.netMinor ?? 0,
    }));
  }
  return series.map((point) => ({ day: point.day, value: point[metric as CountMetric] }));
}

export function ProductDailyPanel({
  products,
  days,
}: {
  products: ProductFigures[];
  days: number;
}) {
  const [productId, setProductId] = useState(products[0]?.productId ?? null);
  const [metric, setMetric] = useState('views');
  const daily = useProductDaily(productId, days);
  const selected = products.find((product) => product.productId === productId);
  const currencies = selected?.revenue.map((figure) => figure.currency) ?? [];
  const currency = metric.startsWith('revenue:') ? metric.slice('revenue:'.length) : null;
  const label = currency
    ? `Revenue (${currency})`
    : (COUNT_METRICS.find((entry) => entry.id === metric)?.label ?? '');

  return (
    <Panel title="Daily figures">
      <div className="mb-4 flex flex-wrap gap-4">
        {/* A long title must not push the select past its card on a phone (issue 29). */}
        <label className="flex w-full min-w-0 flex-col text-sm font-medium text-slate-700 sm:w-auto sm:max-w-sm">
          Product
          <select
            data-testid="daily-product"
            className="mt-1 w-full min-w-0 truncate rounded-md border border-slate-300 px-3 py-2"
            value={productId ?? ''}
            onChange={(event) => setProductId(event.target.value)}
          >
            {products.map((product) => (
              <option key={product.productId} value={product.productId}>
                {product.title}
                {product.deleted ? ' (deleted)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col text-sm font-medium text-slate-700">
          Figure
          <select
            className="mt-1 rounded-md border border-slate-300 px-3 py-2"
            value={metric}
            onChange={(event) => setMetric(event.target.value)}
          >
            {COUNT_METRICS.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.label}
              </option>
            ))}
            {currencies.map((code) => (
              <option key={code} value={`revenue:${code}`}>
                Revenue ({code})
              </option>
            ))}
          </select>
        </label>
      </div>
      {daily.isPending ? (
        <Loading label="Loading the daily figures" />
      ) : daily.isError ? (
        <LoadError what="the daily figures" />
      ) : (
        <DailyChart
          points={pointsOf(daily.data.series, metric)}
          label={label}
          format={currency ? (value) => formatMoney(value, currency) : formatCount}
        />
      )}
    </Panel>
  );
}
