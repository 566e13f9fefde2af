import { Copy } from 'lucide-react';
import { notify } from '@/lib/toast';
import { buttonClass } from './button';

/** Puts `url` on the clipboard and says so; `name` tells apart the buttons of a list. */
export function CopyLinkButton({
  url,
  name,
  variant = 'secondary',
}: {
  url: string;
  name?: string;
  variant?: 'primary' | 'secondary' | 'ghost';
}) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      notify.success('Link copied', url);
    } catch {
      notify.error('Could not copy the link — select it and copy it by hand');
    }
  }
  return (
    <button
      type="button"
      onClick={() => void copy()}
      aria-label={name ? `Copy link to ${name}` : undefined}
      className={buttonClass(variant, 'sm')}
    >
      <Copy className="size-4" aria-hidden="true" /> Copy link
    </button>
  );
}
