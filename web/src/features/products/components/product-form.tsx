import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { choiceClass } from '@/components/ui/choice';
import { Field, labelClass } from '@/components/ui/field';
import { Input, Textarea } from '@/components/ui/input';
import { notify } from '@/lib/toast';
import { draftOf, filesPatchOf, firstPdfOf, type FilesPatch } from '../lib/product-files';
import {
  choiceOf,
  offersStamping,
  pricingOf,
  submissionOf,
  validationProblem,
  type ChosenFile,
  type FormProblem,
  type PricingChoice,
} from '../lib/product-form';
import type { Product, ProductInput } from '../types';
import { CurrencySelect } from './currency-select';
import { FileUpload } from './file-upload';
import { cardClass } from './form-styles';
import { PriceInput } from './price-input';
import { PayWhatYouWant } from './pay-what-you-want';
import { PreviewSettings } from './preview-settings';
import { ProductFiles } from './product-files';
import { StampPdfs } from './stamp-pdfs';

interface ProductFormProps {
  initial: ProductInput;
  maxFileBytes: number;
  /** Edit screen: the product as saved, whose files the Files section edits; create takes one upload. */
  product?: Product;
  busy: boolean;
  /** `files`: what the Files section changed (always empty on create). */
  onSubmit: (input: ProductInput, files: FilesPatch) => void;
  /** The submit and cancel buttons; `canSubmit` is false until the form may be sent. */
  actions: (canSubmit: boolean) => ReactNode;
}

const PRICING_CHOICES: { value: PricingChoice; label: string }[] = [
  { value: 'one_time', label: 'One-time' },
  { value: 'monthly', label: 'Monthly' },
  { value: 'yearly', label: 'Yearly' },
];

export function ProductForm({
  initial,
  maxFileBytes,
  product,
  busy,
  onSubmit,
  actions,
}: ProductFormProps) {
  const id = useId();
  const [input, setInput] = useState(initial);
  const [uploaded, setUploaded] = useState<ChosenFile | null>(null);
  const [problem, setProblem] = useState<FormProblem | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const set = <K extends keyof ProductInput>(key: K, value: ProductInput[K]) => {
    setInput((current) => ({ ...current, [key]: value }));
    if (problem?.field === key) setProblem(null);
  };
  const errorOf = (field: FormProblem['field']) =>
    problem?.field === field ? problem.message : null;
  // Each refused submit takes the seller to the field that needs them.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [problem]);
  const [files, setFiles] = useState(() => (product ? draftOf(product) : null));
  const requireFile = product === undefined;
  const file = files ? firstPdfOf(files) : uploaded;

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validationProblem(input, requireFile);
    setProblem(found);
    // The spec's toast (§8) stays; the field under it now says the same and takes the focus.
    if (found) return notify.error(found.message);
    onSubmit(
      submissionOf(input, file),
      product && files ? filesPatchOf(product, files, new Date()) : {},
    );
  }

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="space-y-6" aria-busy={busy}>
      <section className={`${cardClass} space-y-6`} aria-label="Product details">
        <Field label="Title" required error={errorOf('title')}>
          <Input
            required
            maxLength={200}
            value={input.title}
            onChange={(e) => set('title', e.target.value)}
            placeholder="e.g. Lightroom preset pack"
          />
        </Field>
        <Field label="Description">
          <Textarea
            rows={4}
            maxLength={5000}
            value={input.description ?? ''}
            onChange={(e) => set('description', e.target.value)}
            placeholder="What will the buyer get?"
          />
        </Field>
        <div className="grid gap-6 sm:grid-cols-2">
          <Field
            label={input.minimumPrice === null ? 'Price' : 'Suggested price'}
            required
            error={errorOf('price')}
          >
            <PriceInput value={input.price} onChange={(price) => set('price', price)} />
          </Field>
          <CurrencySelect
            id={`${id}-currency`}
            label="Currency"
            value={input.currency}
            onChange={(currency) => set('currency', currency)}
          />
        </div>
        <fieldset>
          <legend className={labelClass}>Pricing</legend>
          <div className="mt-2 grid grid-cols-3 gap-2">
            {PRICING_CHOICES.map((choice) => (
              <label key={choice.value} className={choiceClass}>
                <input
                  type="radio"
                  name={`${id}-pricing`}
                  value={choice.value}
                  checked={choiceOf(input.pricing) === choice.value}
                  onChange={() =>
                    setInput((current) => ({
                      ...current,
                      pricing: pricingOf(choice.value),
                      // Pay what you want is for one-time pricing only.
                      minimumPrice: choice.value === 'one_time' ? current.minimumPrice : null,
                    }))
                  }
                  className="sr-only"
                />
                {choice.label}
              </label>
            ))}
          </div>
        </fieldset>
        {input.pricing.type === 'one_time' && (
          <PayWhatYouWant
            minimumPrice={input.minimumPrice}
            onChange={(minimumPrice) => set('minimumPrice', minimumPrice)}
            error={errorOf('minimumPrice')}
          />
        )}
        {!files && (
          <FileUpload
            maxBytes={maxFileBytes}
            onUploadedChange={(upload) => {
              setUploaded(upload);
              set('fileId', upload?.id ?? null);
            }}
          />
        )}
        {offersStamping(file) && (
          <StampPdfs
            checked={input.stampPdfs}
            onChange={(stampPdfs) => set('stampPdfs', stampPdfs)}
            fileId={file.id}
          />
        )}
      </section>
      {product && files && (
        <ProductFiles
          saved={product}
          draft={files}
          onChange={(update) => setFiles((current) => current && update(current))}
          maxBytes={maxFileBytes}
        />
      )}
      <PreviewSettings
        enabled={input.previewEnabled}
        blur={input.previewBlurPercentage}
        onEnabledChange={(value) => set('previewEnabled', value)}
        onBlurChange={(value) => set('previewBlurPercentage', value)}
      />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {actions(!busy && (!requireFile || input.fileId !== null))}
      </div>
    </form>
  );
}
