import { Briefcase, Building2, Sparkles, UserRound } from 'lucide-react';
import type { Role } from '@/features/auth';
import { roles } from '../lib/steps';

const icons = { freelancer: UserRound, agency: Briefcase, creator: Sparkles, business: Building2 };

export function RoleStep({
  role,
  onChange,
}: {
  role: Role | null;
  onChange: (role: Role) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-900">Which best describes you?</legend>
      <div className="mt-4 grid gap-3 sm:grid-cols-2">
        {roles.map((option) => {
          const Icon = icons[option.role];
          const checked = role === option.role;
          return (
            <label
              key={option.role}
              className={`flex cursor-pointer items-start gap-3 rounded-xl p-4 ring-1 transition-colors has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-600 ${checked ? 'bg-indigo-50 ring-2 ring-indigo-600' : 'bg-white ring-slate-200 hover:ring-slate-300'}`}
            >
              <input
                type="radio"
                name="role"
                value={option.role}
                checked={checked}
                onChange={() => onChange(option.role)}
                className="sr-only"
              />
              <Icon
                className={`mt-0.5 size-6 flex-none ${checked ? 'text-indigo-600' : 'text-slate-400'}`}
                aria-hidden="true"
              />
              <span>
                <span className="block font-semibold text-slate-900">{option.label}</span>
                <span className="mt-1 block text-sm text-slate-600">{option.description}</span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
