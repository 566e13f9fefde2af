import { planById } from '@lockdrop/plans';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { BrandSettings } from '@lockdrop/contracts';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api';
import { notify } from '@/lib/toast';
import { useBrandSettings, useSaveBrand, useUploadLogo } from '../api/brand';

/**
 * /settings → Brand: the store's handle, name, logo and accent colour (Pro and up). Below Pro
 * the section says which plan unlocks it; buyers then see the plain Lockdrop look.
 */
export function BrandSection() {
  const settings = useBrandSettings();
  return (
    <section
      aria-labelledby="settings-brand"
      className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
    >
      <h2 id="settings-brand" className="text-lg font-semibold text-slate-900">
        Brand
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Your store name, logo and colour on your product pages, checkout, receipts and e-mails.
      </p>
      <div className="mt-6">
        {settings.data ? (
          settings.data.brandingIncluded ? (
            <BrandForm settings={settings.data} />
          ) : (
            <p className="text-sm text-slate-700" data-testid="brand-locked">
              Your own brand comes with the{' '}
              <strong>{planById(settings.data.brandingPlan).name}</strong> plan and above. You are
              on {planById(settings.data.plan).name}, so buyers see the Lockdrop look.{' '}
              <Link
                className="font-semibold text-indigo-700 underline"
                to={paths.pricing.getHref()}
              >
                Compare plans
              </Link>
            </p>
          )
        ) : (
          <p className="text-sm text-slate-500">
            {settings.isError ? 'Could not load your brand.' : 'Loading…'}
          </p>
        )}
      </div>
    </section>
  );
}

function BrandForm({ settings }: { settings: BrandSettings }) {
  const save = useSaveBrand();
  const upload = useUploadLogo();
  const [handle, setHandle] = useState(settings.brand?.handle ?? '');
  const [name, setName] = useState(settings.brand?.name ?? '');
  const [accent, setAccent] = useState(settings.brand?.accentColour ?? '');
  const [logo, setLogo] = useState({
    id: settings.brand?.logoId ?? null,
    url: settings.brand?.logoUrl ?? null,
  });
  const [errors, setErrors] = useState<{
    handle?: string;
    name?: string;
    accent?: string;
    logo?: string;
  }>({});

  function onLogo(file: File | undefined) {
    if (!file) return;
    upload.mutate(file, {
      onSuccess: (stored) => {
        setLogo({ id: stored.logoId, url: stored.logoUrl });
        setErrors((current) => ({ ...current, logo: undefined }));
      },
      onError: (failure) => setErrors((current) => ({ ...current, logo: failure.message })),
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    save.mutate(
      { handle, name, accentColour: accent.trim() || null, logoId: logo.id },
      {
        onSuccess: () => notify.success('Brand saved'),
        onError: (failure) => {
          const code = failure instanceof ApiError ? failure.code : '';
          if (code.startsWith('accent_colour') || code === 'invalid_accent_colour')
            setErrors({ accent: failure.message });
          else if (code.startsWith('handle') || code === 'invalid_handle')
            setErrors({ handle: failure.message });
          else if (code === 'logo_not_found') setErrors({ logo: failure.message });
          else notify.error(failure, 'Failed to save your brand');
        },
      },
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Brand" className="space-y-5">
      <TextField
        label="Store name"
        name="storeName"
        value={name}
        error={errors.name}
        maxLength={80}
        onChange={(event) => setName(event.target.value)}
      />
      <TextField
        label="Store handle"
        name="handle"
        value={handle}
        error={errors.handle}
        hint={`Your store page: ${window.location.origin}/s/${handle || 'your-handle'}`}
        onChange={(event) => setHandle(event.target.value)}
      />
      <div className="space-y-2">
        <label htmlFor="brand-logo" className="block text-sm font-medium text-slate-900">
          Logo
        </label>
        <div className="flex items-center gap-4">
          {logo.url ? (
            <img
              src={logo.url}
              alt="Your logo"
              className="size-14 rounded object-contain ring-1 ring-slate-200"
            />
          ) : (
            <span className="grid size-14 place-items-center rounded bg-slate-100 text-xs text-slate-500">
              None
            </span>
          )}
          <input
            id="brand-logo"
            name="logo"
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml"
            aria-describedby="brand-logo-hint"
            className="text-sm"
            onChange={(event) => onLogo(event.target.files?.[0])}
          />
          {logo.url && (
            <button
              type="button"
              className="text-sm font-semibold text-slate-700 underline"
              onClick={() => setLogo({ id: null, url: null })}
            >
              Remove
            </button>
          )}
        </div>
        <p id="brand-logo-hint" className="text-sm text-slate-600">
          {upload.isPending
            ? 'Uploading…'
            : 'PNG, JPEG, WebP, GIF or SVG up to 5 MB; we resize it to 256 px.'}
        </p>
        {errors.logo && (
          <p role="alert" className="text-sm text-rose-700">
            {errors.logo}
          </p>
        )}
      </div>
      <TextField
        label="Accent colour"
        name="accentColour"
        value={accent}
        placeholder="#1d4ed8"
        error={errors.accent}
        hint="Buttons and links on your pages. It must reach 4.5:1 contrast against white (WCAG AA)."
        onChange={(event) => setAccent(event.target.value)}
      />
      <Button type="submit" disabled={save.isPending || upload.isPending}>
        {save.isPending ? 'Saving...' : 'Save brand'}
      </Button>
    </form>
  );
}
