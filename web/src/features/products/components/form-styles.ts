/** The white card each section of the product form sits on. */
export const cardClass = 'rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8';
