/** Classes of this feature's form controls (the product form's look). */
export const inputClass =
  'mt-2 block w-full rounded-lg border-0 px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none';

export const labelClass = 'block text-sm font-medium text-slate-900';

export const choiceClass =
  'flex cursor-pointer items-center justify-center gap-2 rounded-lg px-3 py-2.5 text-sm font-medium ring-1 ring-slate-300 has-checked:bg-indigo-50 has-checked:text-indigo-800 has-checked:ring-2 has-checked:ring-indigo-600 has-focus-visible:outline-2 has-focus-visible:outline-indigo-600';
