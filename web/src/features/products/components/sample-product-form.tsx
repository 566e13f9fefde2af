import { useId, useState, type FormEvent } from 'react';
import { Field, labelClass } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { notify } from '@/lib/toast';
import { useCreateProduct } from '../api/create-product';
import { emptyInput, validationMessage } from '../lib/product-form';
import { useMaxFileBytes } from '../lib/use-max-file-bytes';
import type { Product } from '../types';
import { FileUpload } from './file-upload';
import { PriceInput } from './price-input';

/** Onboarding's sample blur scale (spec §9: 0–10, default 5), stored ×10 on the 0–100 scale. */
const DEFAULT_SAMPLE_BLUR = 5;

/**
 * Onboarding step 3, the spec's "first sample delivery": a name, a price in USD, a file (the
 * same upload, progress and plan limits as /create-product) and a blur level 0–10. Submitting
 * `formId` creates the product as a draft; the seller publishes it from /dashboard.
 */
export function SampleProductForm({
  formId,
  onCreated,
}: {
  formId: string;
  onCreated: (product: Product) => void;
}) {
  const id = useId();
  const maxFileBytes = useMaxFileBytes();
  const create = useCreateProduct({ onSuccess: onCreated });
  const [title, setTitle] = useState('');
  const [price, setPrice] = useState('');
  const [fileId, setFileId] = useState<string | null>(null);
  const [blur, setBlur] = useState(DEFAULT_SAMPLE_BLUR);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    const input = {
      ...emptyInput,
      title: title.trim(),
      price,
      currency: 'USD',
      fileId,
      previewEnabled: true,
      previewBlurPercentage: blur * 10,
    };
    const message = validationMessage(input, true);
    if (message) return notify.error(message);
    create.mutate(input);
  }

  return (
    <form
      id={formId}
      noValidate
      onSubmit={submit}
      className="space-y-6"
      aria-busy={create.isPending}
    >
      <p className="text-sm text-slate-600">
        Upload a file, set a price, share one link: buyers see a blurred preview, pay, and the file
        unlocks for them. It is saved as a draft; publish it from your dashboard when it is ready.
      </p>
      <div className="grid gap-6 sm:grid-cols-2">
        <Field label="Name" required>
          <Input
            required
            maxLength={200}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
            placeholder="e.g. Logo concepts for Ada's bakery"
          />
        </Field>
        <Field label="Price (USD)" required>
          <PriceInput value={price} onChange={setPrice} />
        </Field>
      </div>
      <FileUpload
        maxBytes={maxFileBytes}
        onUploadedChange={(file) => setFileId(file?.id ?? null)}
      />
      <div>
        <label htmlFor={`${id}-blur`} className={labelClass}>
          Blur level: {blur}
        </label>
        <input
          id={`${id}-blur`}
          type="range"
          min={0}
          max={10}
          step={1}
          value={blur}
          onChange={(event) => setBlur(Number(event.target.value))}
          className="mt-3 w-full accent-indigo-600"
        />
        <div className="mt-1 flex justify-between text-xs text-slate-500">
          <span>0 (clear)</span>
          <span>10 (strongest)</span>
        </div>
      </div>
    </form>
  );
}
