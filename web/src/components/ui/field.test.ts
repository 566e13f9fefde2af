import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Field } from './field';
import { Input } from './input';

const attribute = (html: string, tag: string, name: string) =>
  new RegExp(`<${tag}[^>]*\\s${name}="([^"]*)"`).exec(html)?.[1];

const render = (props: { hint?: string; error?: string }) =>
  renderToStaticMarkup(
    h(Field, { label: 'E-mail', id: 'email', ...props, children: h(Input, { name: 'email' }) }),
  );

describe('Field', () => {
  it('labels its control and describes it with the hint', () => {
    const html = render({ hint: 'We send the receipt here' });
    expect(attribute(html, 'label', 'for')).toBe('email');
    expect(attribute(html, 'input', 'id')).toBe('email');
    expect(attribute(html, 'input', 'aria-describedby')).toBe('email-hint');
    expect(attribute(html, 'input', 'aria-invalid')).toBeUndefined();
    expect(html).toContain('We send the receipt here');
  });

  it('shows an error under the control in place of the hint, marked invalid', () => {
    const html = render({ hint: 'We send the receipt here', error: 'Please enter your email' });
    expect(attribute(html, 'input', 'aria-invalid')).toBe('true');
    expect(attribute(html, 'input', 'aria-describedby')).toBe('email-error');
    expect(html).toMatch(/<p id="email-error" role="alert"[^>]*>Please enter your email<\/p>/);
    expect(html).not.toContain('We send the receipt here');
    expect(html.indexOf('<input')).toBeLessThan(html.indexOf('email-error"'));
  });

  it('lets an Input outside a Field stand alone', () => {
    const html = renderToStaticMarkup(h(Input, { name: 'q', 'aria-label': 'Search' }));
    expect(attribute(html, 'input', 'id')).toBeUndefined();
    expect(attribute(html, 'input', 'aria-invalid')).toBeUndefined();
  });
});
