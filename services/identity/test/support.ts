import type { PlanId } from '@lockdrop/contracts';
import { loadConfig } from '@lockdrop/config';
import { createPool, type Pool } from '@lockdrop/db';
import type { HttpServer } from '@lockdrop/http';
import { mailboxSchema, openMailbox, type StoredMail } from '@lockdrop/mailer';
import { serviceSchemas } from '@lockdrop/service';
import {
  createTestDatabase,
  serviceTestEnv,
  deleteStreams,
  testEnv,
  testNamespace,
  type TestDatabase,
} from '@lockdrop/testing';
import { expect } from 'vitest';
import { buildApp } from '../src/app.js';
import { configSchema } from '../src/config.js';
import { migrations } from '../src/db/migrations/index.js';
import { generateSigningKey } from '../src/keys/key-ring.js';

export const PUBLIC_URL = 'http://lockdrop.test';

export interface TestIdentity {
  app: HttpServer;
  database: TestDatabase;
  namespace: string;
  /** Reads identity's tables directly, for assertions only. */
  db: Pool;
  signingKeys: Awaited<ReturnType<typeof generateSigningKey>>[];
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A real identity service on its own database and bus namespace. */
export async function startIdentity(
  overrides: Record<string, string | undefined> = {},
): Promise<TestIdentity> {
  const database = await createTestDatabase({
    schemas: serviceSchemas({ name: 'identity', migrations, sharedSchemas: [mailboxSchema] }),
  });
  const namespace = testNamespace();
  const signingKeys = [await generateSigningKey()];
  const env: Record<string, string> = {
    ...serviceTestEnv({ databaseUrl: database.url, namespace }),
    NODE_ENV: 'test',
    PUBLIC_URL,
    JWT_PRIVATE_KEYS: JSON.stringify({ keys: signingKeys }),
    REFRESH_REUSE_GRACE_SECONDS: '0',
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const app = await buildApp(loadConfig(configSchema, env));
  const db = createPool({ connectionString: database.url, schema: 'identity', max: 2 });
  return {
    app,
    database,
    namespace,
    db,
    signingKeys,
    env,
    async close() {
      await app.close();
      await db.end();
      await deleteStreams(testEnv.natsUrl, namespace);
      await database.drop();
    },
  };
}

interface StoredCookie {
  value: string;
  path: string;
  attributes: string;
}

/**
 * GET /api/auth/session answered "not signed in": 401 to a browser that still sends a (dead)
 * session cookie, 200 `{ user: null }` to one that sends none (issue 29).
 */
export function isSignedOut(reply: Reply): boolean {
  if (reply.status === 200) return reply.body?.user === null;
  return reply.status === 401;
}

export interface Reply {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests assert the shape
  headers: Record<string, string | string[] | number | undefined>;
  setCookies: string[];
}

/**
 * One browser: keeps the cookies identity sets (honouring their paths and deletion) and sends
 * them back, like the web client does with `credentials: 'include'`.
 */
export class Browser {
  readonly cookies = new Map<string, StoredCookie>();
  constructor(
    private readonly app: HttpServer,
    private readonly headers: Record<string, string> = {},
  ) {}

  async request(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    const path = url.split('?')[0]!;
    const cookie = [...this.cookies]
      .filter(([, stored]) => path.startsWith(stored.path))
      .map(([name, stored]) => `${name}=${stored.value}`)
      .join('; ');
    const response = await this.app.inject({
      method,
      url,
      headers: { ...this.headers, ...headers, ...(cookie ? { cookie } : {}) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    const raw = response.headers['set-cookie'];
    const setCookies = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
    for (const line of setCookies) this.store(line);
    let body: unknown = response.body;
    if (String(response.headers['content-type'] ?? '').includes('json')) body = response.json();
    return { status: response.statusCode, body, headers: response.headers, setCookies };
  }

  get = (url: string, headers?: Record<string, string>) =>
    this.request('GET', url, undefined, headers);
  post = (url: string, payload?: unknown, headers?: Record<string, string>) =>
    this.request('POST', url, payload ?? {}, headers);

  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  private store(line: string) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const [name, ...value] = pair!.split('=');
    const path = attributes.find((part) => part.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
    const expires = attributes.find((part) => part.toLowerCase().startsWith('expires='));
    const deleted =
      /max-age=0/i.test(line) || (expires && new Date(expires.slice(8)).getTime() < Date.now());
    if (deleted) this.cookies.delete(name!);
    else
      this.cookies.set(name!, { value: value.join('='), path, attributes: attributes.join('; ') });
  }
}

let counter = 0;
/** A fresh, unique account's sign-up details. */
export function makeSignUp(overrides: Record<string, unknown> = {}) {
  counter += 1;
  return {
    fullName: 'Ada Obi',
    email: `ada.${counter}.${Math.random().toString(36).slice(2, 8)}@example.com`,
    password: 'correct horse battery',
    acceptTerms: true,
    ...overrides,
  };
}

/** Waits for the newest e-mail to `to` in the development mailbox. */
export async function latestMail(db: Pool, to: string, subject?: RegExp): Promise<StoredMail> {
  const mailbox = await openMailbox(db);
  let found: StoredMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailbox.list({ to })).find((mail) => !subject || subject.test(mail.subject));
        return found;
      },
      { timeout: 5_000, interval: 50 },
    )
    .toBeTruthy();
  return found!;
}

export function linkIn(mail: StoredMail): URL {
  const match = /https?:\/\/\S+token=[\w-]+/.exec(mail.text);
  if (!match) throw new Error(`no link in ${mail.text}`);
  return new URL(match[0]);
}

/** A person in the team tests: their browser-like client, account and password. */
export interface Person {
  client: Browser;
  userId: string;
  email: string;
  password: string;
}

/**
 * A signed-up account with a verified e-mail on `plan` (set in the table: the plan consumer is
 * tested elsewhere), holding a fresh access token that says both.
 */
export async function verifiedPerson(
  identity: TestIdentity,
  plan: PlanId = 'free',
  headers: Record<string, string> = { 'x-forwarded-for': '203.0.113.9' },
): Promise<Person> {
  const client = new Browser(identity.app, headers);
  const details = makeSignUp();
  const response = await client.post('/api/auth/sign-up', details);
  expect(response.status).toBe(201);
  const userId = response.body.user.id as string;
  await identity.db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [userId]);
  await identity.db.query('UPDATE profiles SET plan = $2 WHERE id = $1', [userId, plan]);
  await client.post('/api/auth/refresh');
  return { client, userId, email: details.email, password: details.password };
}

/** A new person `owner` invites with `role`, who accepts from the e-mailed link. */
export async function joinedMember(
  identity: TestIdentity,
  owner: Person,
  role: string,
  headers?: Record<string, string>,
): Promise<Person> {
  const member = await verifiedPerson(identity, 'free', headers);
  const sent = await owner.client.post(`/api/auth/stores/${owner.userId}/invites`, {
    email: member.email,
    role,
  });
  expect(sent.status).toBe(201);
  const link = linkIn(await latestMail(identity.db, member.email, /invited you/));
  const accepted = await member.client.post('/api/auth/invites/accept', {
    token: link.searchParams.get('token'),
  });
  expect(accepted.status).toBe(200);
  return member;
}
