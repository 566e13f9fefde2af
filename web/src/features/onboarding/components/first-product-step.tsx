import { FileUp } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';

export function FirstProductStep() {
  return (
    <div className="rounded-2xl border-2 border-dashed border-slate-200 p-8 text-center">
      <FileUp className="mx-auto size-10 text-indigo-600" aria-hidden="true" />
      <p className="mt-4 font-semibold text-slate-900">
        Upload a file, set a price, share one link
      </p>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
        Buyers see a blurred preview, pay, and the file unlocks for them. Files up to 50MB on the
        Free plan.
      </p>
      <ButtonLink to={paths.products.create.getHref()} variant="secondary" className="mt-6">
        Create your first product
      </ButtonLink>
    </div>
  );
}
