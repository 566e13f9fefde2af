import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import {
  contactMessageSchema,
  useSendContactMessage,
  type ContactMessage,
} from '../api/send-message';

type Field = keyof ContactMessage;
type FieldErrors = Partial<Record<Field, string>>;

const inputClass =
  'mt-2 block w-full rounded-lg border-0 px-3.5 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-indigo-600 focus:outline-none';

export function ContactForm() {
  const id = useId();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formKey, setFormKey] = useState(0);
  const send = useSendContactMessage({ onSuccess: () => setFormKey((key) => key + 1) });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = Object.fromEntries(new FormData(event.currentTarget));
    const parsed = contactMessageSchema.safeParse(data);
    if (!parsed.success) {
      const fieldErrors: FieldErrors = {};
      for (const issue of parsed.error.issues)
        fieldErrors[issue.path[0] as Field] ??= issue.message;
      setErrors(fieldErrors);
      return;
    }
    setErrors({});
    send.mutate(parsed.data);
  }

  const field = (name: Field) => ({
    id: `${id}-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    className: `${inputClass} ${errors[name] ? 'ring-rose-400' : 'ring-slate-300'}`,
  });

  const error = (name: Field) =>
    errors[name] && (
      <p id={`${id}-${name}-error`} className="mt-2 text-sm text-rose-700">
        {errors[name]}
      </p>
    );

  return (
    <form
      key={formKey}
      noValidate
      onSubmit={onSubmit}
      aria-label="Contact form"
      className="space-y-6"
    >
      <div className="grid gap-6 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-name`} className="block text-sm font-medium text-slate-900">
            Name
          </label>
          <input type="text" autoComplete="name" required {...field('name')} />
          {error('name')}
        </div>
        <div>
          <label htmlFor={`${id}-email`} className="block text-sm font-medium text-slate-900">
            E-mail
          </label>
          <input type="email" autoComplete="email" required {...field('email')} />
          {error('email')}
        </div>
      </div>
      <div>
        <label htmlFor={`${id}-message`} className="block text-sm font-medium text-slate-900">
          Message
        </label>
        <textarea rows={6} required {...field('message')} />
        {error('message')}
      </div>
      <Button type="submit" size="lg" disabled={send.isPending} className="w-full sm:w-auto">
        {send.isPending ? 'Sending...' : 'Send message'}
      </Button>
    </form>
  );
}
