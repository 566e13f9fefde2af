import { useState } from 'react';
import { notify } from '@/lib/toast';
import type { FormProblem } from './validation';

/** Shows a problem the spec's way (a toast with title and message), marks its fields and focuses the first. */
export function useFormProblem() {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  return {
    fieldErrors,
    clear: () => setFieldErrors({}),
    report(form: HTMLFormElement, problem: FormProblem) {
      setFieldErrors(problem.fields);
      notify.problem(problem.title, problem.description);
      const [first] = Object.keys(problem.fields);
      const element = first ? form.elements.namedItem(first) : null;
      if (element instanceof HTMLElement) element.focus();
    },
  };
}

export function formText(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === 'string' ? value : '';
}

export function formChecked(form: HTMLFormElement, name: string): boolean {
  return new FormData(form).get(name) === 'on';
}
