/** Shared classes of this feature's form controls (the contact form's look). */
export const inputClass =
  'mt-2 block w-full rounded-lg border-0 px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none';

export const labelClass = 'block text-sm font-medium text-slate-900';

export const cardClass = 'rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8';
