/** The purchase card's text inputs; `invalid` rings them in red. */
export const fieldClass = (invalid: boolean) =>
  `mt-2 block w-full rounded-lg border-0 px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none ${invalid ? 'ring-rose-400' : 'ring-slate-300'}`;

export const labelClass = 'block text-sm font-medium text-slate-900';
