import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { baseUrl } from './browser';

/** A person the journeys act as; the password is what they would type at /login. */
export interface TestAccount {
  email: string;
  password: string;
  fullName: string;
}

export interface MailboxMessage {
  subject: string;
  to: string;
  text: string;
  links: string[];
}

const contextOf = (target: Page | BrowserContext): BrowserContext =>
  'context' in target && typeof target.context === 'function'
    ? (target as Page).context()
    : (target as BrowserContext);

/** A fresh, unique account (so tests run in parallel and in any order). */
export function newAccount(prefix = 'seller'): TestAccount {
  const id = `${Date.now().toString(36)}${randomBytes(4).toString('hex')}`;
  return {
    email: `${prefix}-${id}@example.com`,
    password: `Pass-${randomBytes(6).toString('hex')}`,
    fullName: `Ada ${prefix[0]!.toUpperCase()}${prefix.slice(1)} ${id.slice(-4)}`,
  };
}

const decode = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** Every message in the development mailbox (`/dev/mailbox`, newest first). */
export async function readMailbox(target: Page | BrowserContext): Promise<MailboxMessage[]> {
  const response = await contextOf(target).request.get(`${baseUrl}/dev/mailbox`);
  if (!response.ok()) throw new Error(`/dev/mailbox answered ${response.status()}`);
  const html = await response.text();
  return [...html.matchAll(/<article[^>]*>([\s\S]*?)<\/article>/g)].map(([, body = '']) => ({
    subject: decode(/<h2[^>]*>([\s\S]*?)<\/h2>/.exec(body)?.[1] ?? ''),
    to: decode(/To <strong>([\s\S]*?)<\/strong>/.exec(body)?.[1] ?? ''),
    text: decode(/<pre[^>]*>([\s\S]*?)<\/pre>/.exec(body)?.[1] ?? ''),
    links: [...body.matchAll(/href="([^"]+)"/g)].map(([, href = '']) => decode(href)),
  }));
}

/**
 * The newest message that `matches`, waiting for it to arrive (mail leaves through an outbox
 * relay, so it shows up a moment after the request that sent it).
 */
export async function waitForMailWhere(
  target: Page | BrowserContext,
  matches: (message: MailboxMessage) => boolean,
  timeoutMs = 20_000,
): Promise<MailboxMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readMailbox(target)).find(matches);
    if (found) return found;
    if (Date.now() > deadline) throw new Error('The expected e-mail did not arrive');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The newest message to `to` whose subject contains `subject`. */
export function waitForMail(
  target: Page | BrowserContext,
  { to, subject }: { to: string; subject: string },
  timeoutMs?: number,
): Promise<MailboxMessage> {
  return waitForMailWhere(
    target,
    (message) => message.to.toLowerCase() === to.toLowerCase() && message.subject.includes(subject),
    timeoutMs,
  );
}

/** The link in a message whose path contains `pathPart`, e.g. '/api/auth/verify-email'. */
export function linkIn(message: MailboxMessage, pathPart: string): string {
  const link = message.links.find((href) => href.includes(pathPart));
  if (!link) throw new Error(`"${message.subject}" has no link to ${pathPart}`);
  return link;
}

export const VERIFY_SUBJECT = 'Confirm your e-mail';
export const RESET_SUBJECT = 'Reset your Lockdrop password';

/** Opens the verification link from the dev mailbox in the context (as the person would). */
export async function verifyEmail(target: Page | BrowserContext, email: string): Promise<void> {
  const message = await waitForMail(target, { to: email, subject: VERIFY_SUBJECT });
  const response = await contextOf(target).request.get(linkIn(message, '/api/auth/verify-email'), {
    maxRedirects: 0,
  });
  const location = response.headers()['location'] ?? '';
  if (response.status() !== 303 || location.includes('error=')) {
    throw new Error(`Verification failed: ${response.status()} ${location}`);
  }
}

/**
 * Signs up a fresh seller through the identity API in this browser context, which is then signed
 * in (its cookies hold the session). With `verified`, opens the verification link from the
 * dev mailbox too. Returns what the person would type to sign in again.
 */
export async function signUpSeller(
  target: Page | BrowserContext,
  { verified = false, remember = false, prefix = 'seller' } = {},
): Promise<TestAccount> {
  const account = newAccount(prefix);
  const response = await contextOf(target).request.post(`${baseUrl}/api/auth/sign-up`, {
    data: { ...account, acceptTerms: true, remember },
  });
  if (response.status() !== 201) {
    throw new Error(`Sign-up failed: ${response.status()} ${await response.text()}`);
  }
  if (verified) await verifyEmail(target, account.email);
  return account;
}

/** Signs in through the API (no UI), e.g. to sign a second browser in as the same person. */
export async function signInByApi(
  target: Page | BrowserContext,
  { email, password }: Pick<TestAccount, 'email' | 'password'>,
  remember = false,
): Promise<void> {
  const response = await contextOf(target).request.post(`${baseUrl}/api/auth/sign-in`, {
    data: { email, password, remember },
  });
  if (!response.ok())
    throw new Error(`Sign-in failed: ${response.status()} ${await response.text()}`);
}

/** Signs in through the /login form and waits to leave it. */
export async function signInThroughUi(
  page: Page,
  { email, password }: Pick<TestAccount, 'email' | 'password'>,
  { remember = false, path = '/login' } = {},
): Promise<void> {
  if (!new URL(page.url()).pathname.endsWith('login')) {
    await page.goto(path, { waitUntil: 'networkidle' });
  }
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (remember) await page.getByLabel('Remember me for 30 days').check();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
}
