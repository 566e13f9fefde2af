import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { site } from '@/config/site';

export function LogoMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" width="32" height="32" className={className} aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-indigo-600" />
      <path
        d="M11 14v-3a5 5 0 0 1 10 0v3"
        fill="none"
        stroke="#fff"
        strokeWidth="2.5"
        strokeLinecap="round"
      />
      <rect x="8.5" y="14" width="15" height="11" rx="2.5" fill="#fff" />
      <circle cx="16" cy="19.5" r="1.8" className="fill-indigo-600" />
    </svg>
  );
}

export function Logo({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <Link
      to={paths.home.getHref()}
      onClick={onNavigate}
      className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight text-slate-900"
    >
      <LogoMark />
      <span>{site.name}</span>
    </Link>
  );
}
