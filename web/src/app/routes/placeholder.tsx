import { Construction } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';

interface PlaceholderProps {
  title: string;
  /** The issue that owns and will replace this screen. */
  owner: string;
}

/** PLACEHOLDER — a route whose screen is built by another issue. Replace, do not extend. */
export default function PlaceholderRoute({ title, owner }: PlaceholderProps) {
  return (
    <div
      className="mx-auto flex max-w-xl flex-col items-center px-4 py-28 text-center"
      data-placeholder={owner}
    >
      <Construction className="size-10 text-amber-500" aria-hidden="true" />
      <h1 className="mt-6 text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-4 text-slate-600">
        Placeholder: this screen is delivered by the <strong>{owner}</strong> work.
      </p>
      <ButtonLink to={paths.home.getHref()} variant="secondary" className="mt-8">
        Back to home
      </ButtonLink>
    </div>
  );
}
