/** A segmented choice: a radio hidden inside its label, the label styled as the button. */
export const choiceClass =
  'flex cursor-pointer items-center justify-center gap-2 rounded-lg px-3 py-2.5 text-sm font-medium ring-1 ring-slate-300 has-checked:bg-indigo-50 has-checked:text-indigo-800 has-checked:ring-2 has-checked:ring-indigo-600 has-focus-visible:outline-2 has-focus-visible:outline-indigo-600';
