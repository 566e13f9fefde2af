import { useState } from 'react';
import { avatarImages, initialsOf } from '../lib/avatar';

interface AvatarProps {
  avatarUrl?: string | null;
  email?: string | null;
  fullName?: string | null;
  className?: string;
}

/** Picture → image generated from the e-mail → initials → '?' (spec §2). Decorative: name it nearby. */
export function Avatar({ avatarUrl, email, fullName, className = 'size-9' }: AvatarProps) {
  const images = avatarImages(avatarUrl, email);
  const [failed, setFailed] = useState<string[]>([]);
  const source = images.find((image) => !failed.includes(image));
  const frame = `${className} inline-flex flex-none items-center justify-center overflow-hidden rounded-full bg-indigo-100 ring-1 ring-slate-200`;
  if (source) {
    return (
      <span className={frame} aria-hidden="true">
        <img
          src={source}
          alt=""
          className="size-full object-cover"
          referrerPolicy="no-referrer"
          onError={() => setFailed((previous) => [...previous, source])}
        />
      </span>
    );
  }
  return (
    <span
      className={`${frame} text-xs font-semibold text-indigo-700`}
      aria-hidden="true"
      data-avatar-initials
    >
      {initialsOf(fullName)}
    </span>
  );
}
