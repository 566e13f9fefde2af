import { planById } from '@lockdrop/plans';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { DomainSettings, DomainStatus, StoreDomain } from '@lockdrop/contracts';
import { Button } from '@/components/ui/button';
import { Table } from '@/components/ui/table';
import { TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import { useAddDomain, useDomainSettings, useRemoveDomain, useVerifyDomain } from '../api/domain';

const STATUS_LABEL: Record<DomainStatus, string> = {
  pending: 'Pending',
  verified: 'Verified',
  paused: 'Paused',
};
const STATUS_STYLE: Record<DomainStatus, string> = {
  pending: 'bg-amber-50 text-amber-800 ring-amber-200',
  verified: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  paused: 'bg-rose-50 text-rose-800 ring-rose-200',
};

/**
 * /settings → Custom domain (Business, issue 28): the seller's own address for their store, the
 * DNS records to create, "Verify now", and the state the hourly re-check keeps.
 */
export function DomainSection() {
  const settings = useDomainSettings();
  return (
    <section
      id="domain"
      aria-labelledby="settings-domain"
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
    >
      <h2 id="settings-domain" className="text-lg font-semibold text-slate-900">
        Custom domain
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Your store, product pages, checkout and downloads at your own address, like
        shop.example.com. Your Lockdrop links keep working.
      </p>
      <div className="mt-6">
        {settings.data ? (
          <DomainBody settings={settings.data} />
        ) : (
          <p className="text-sm text-slate-500">
            {settings.isError ? 'Could not load your domain.' : 'Loading…'}
          </p>
        )}
      </div>
    </section>
  );
}

function DomainBody({ settings }: { settings: DomainSettings }) {
  if (!settings.domainIncluded)
    return (
      <p className="text-sm text-slate-700" data-testid="domain-locked">
        A custom domain comes with the <strong>{planById(settings.domainPlan).name}</strong> plan.
        You are on {planById(settings.plan).name}.{' '}
        <Link className="font-semibold text-indigo-700 underline" to={paths.pricing.getHref()}>
          Compare plans
        </Link>
      </p>
    );
  if (settings.domain) return <ConnectedDomain domain={settings.domain} />;
  if (!settings.handle)
    return (
      <p className="text-sm text-slate-700">
        Save your store handle under Brand first: your domain shows that store.
      </p>
    );
  return <AddDomainForm />;
}

function AddDomainForm() {
  const add = useAddDomain();
  const [host, setHost] = useState('');
  const [error, setError] = useState<string>();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(undefined);
    add.mutate(
      { host },
      {
        onError: (failure) => {
          const code = failure instanceof ApiError ? failure.code : '';
          if (code === 'invalid_domain' || code === 'domain_taken') setError(failure.message);
          else notify.error(failure, 'Failed to add your domain');
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Custom domain" className="space-y-4">
      <TextField
        label="Domain"
        name="domain"
        value={host}
        placeholder="shop.example.com"
        error={error}
        hint="A domain you own. Next we show the DNS records to create at your DNS host."
        onChange={(event) => setHost(event.target.value)}
      />
      <Button type="submit" disabled={add.isPending || host.trim() === ''}>
        {add.isPending ? 'Adding…' : 'Add domain'}
      </Button>
    </form>
  );
}

function ConnectedDomain({ domain }: { domain: StoreDomain }) {
  const verify = useVerifyDomain();
  const remove = useRemoveDomain();
  const checked = domain.lastCheckedAt ? new Date(domain.lastCheckedAt).toLocaleString() : null;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-3">
        <span
          className="font-mono text-base font-semibold text-slate-900"
          data-testid="domain-host"
        >
          {domain.host}
        </span>
        <span
          data-testid="domain-status"
          className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ${STATUS_STYLE[domain.status]}`}
        >
          {STATUS_LABEL[domain.status]}
        </span>
      </div>
      <p className="text-sm text-slate-600" data-testid="domain-last-check">
        {checked ? `Last checked ${checked}. ` : 'Not checked yet. '}
        {domain.lastCheck?.message ?? ''}
      </p>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Create these DNS records</h3>
        <Table
          minWidthClass="min-w-[36rem]"
          rows={domain.records}
          rowKey={(record) => `${record.type} ${record.name} ${record.value}`}
          columns={[
            { header: 'Type', cell: (record) => record.type },
            {
              header: 'Name',
              rowHeader: true,
              cell: (record) => <code className="break-all">{record.name}</code>,
            },
            {
              header: 'Value',
              cell: (record) => <code className="break-all">{record.value}</code>,
            },
          ]}
        />
        <p className="mt-2 text-sm text-slate-600">
          The TXT record proves the domain is yours; the{' '}
          {domain.apex ? 'A records send' : 'CNAME sends'} your buyers to Lockdrop.
          {domain.apex &&
            ' If your DNS host offers ALIAS or ANAME, it can point at the same address a CNAME would.'}{' '}
          We check again every hour; a domain whose records go missing is paused and you are
          e-mailed.
        </p>
      </div>
      <div className="flex flex-wrap gap-3">
        <Button
          onClick={() =>
            verify.mutate(undefined, {
              onError: (failure) => notify.error(failure, 'Failed to verify your domain'),
            })
          }
          disabled={verify.isPending}
        >
          {verify.isPending ? 'Checking…' : 'Verify now'}
        </Button>
        <Button
          variant="secondary"
          onClick={() =>
            remove.mutate(undefined, {
              onSuccess: () => notify.success('Domain removed'),
              onError: (failure) => notify.error(failure, 'Failed to remove your domain'),
            })
          }
          disabled={remove.isPending}
        >
          Remove domain
        </Button>
      </div>
    </div>
  );
}
