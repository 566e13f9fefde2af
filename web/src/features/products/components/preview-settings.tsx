import { EyeOff, Eye } from 'lucide-react';
import { useId } from 'react';
import { cardClass } from './form-styles';

interface PreviewSettingsProps {
  enabled: boolean;
  blur: number;
  onEnabledChange: (enabled: boolean) => void;
  onBlurChange: (blur: number) => void;
}

/** Preview toggle and blur strength (0–100, step 5; spec §5). */
export function PreviewSettings({
  enabled,
  blur,
  onEnabledChange,
  onBlurChange,
}: PreviewSettingsProps) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className={cardClass}>
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-900">
            Preview settings
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Buyers see a blurred preview of your file before they pay. The original stays locked.
          </p>
        </div>
        <button
          type="button"
          role="switch"
          aria-checked={enabled}
          aria-label="Show a blurred preview"
          onClick={() => onEnabledChange(!enabled)}
          className={`relative inline-flex h-6 w-11 flex-none items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 ${enabled ? 'bg-indigo-600' : 'bg-slate-300'}`}
        >
          <span
            className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${enabled ? 'translate-x-5' : 'translate-x-0.5'}`}
          />
        </button>
      </div>
      {enabled ? (
        <div className="mt-6">
          <div className="flex items-center justify-between">
            <label htmlFor={`${id}-blur`} className="text-sm font-medium text-slate-900">
              Blur level
            </label>
            <output htmlFor={`${id}-blur`} className="text-sm font-semibold text-indigo-700">
              {blur}%
            </output>
          </div>
          <input
            id={`${id}-blur`}
            type="range"
            min={0}
            max={100}
            step={5}
            value={blur}
            onChange={(event) => onBlurChange(Number(event.target.value))}
            className="mt-3 w-full accent-indigo-600"
          />
          <ul className="mt-4 space-y-1 rounded-lg bg-indigo-50 px-4 py-3 text-sm text-indigo-900">
            <li className="flex gap-2">
              <Eye className="mt-0.5 size-4 flex-none" aria-hidden="true" />
              Tip: 50–70% blur shows enough to interest buyers without giving the content away.
            </li>
            <li className="flex gap-2">
              <EyeOff className="mt-0.5 size-4 flex-none" aria-hidden="true" />
              The preview is rendered on our servers; buyers never receive the original before
              paying.
            </li>
          </ul>
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-500">
          Preview off: buyers see the file type and name only.
        </p>
      )}
    </section>
  );
}
