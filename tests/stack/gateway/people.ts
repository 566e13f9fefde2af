import { randomUUID } from 'node:crypto';
import type { Pool } from '@lockdrop/db';
import { expect } from 'vitest';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- assertions check the shape
export type Json = any;

/** One browser: keeps identity's cookies and sends them back (to `origin` unless told). */
export class Person {
  readonly cookies = new Map<string, string>();
  userId = '';
  constructor(
    readonly email: string,
    readonly origin: string,
  ) {}

  async call(
    pathname: string,
    init: { method?: string; body?: unknown; origin?: string; form?: FormData } = {},
  ): Promise<{ status: number; body: Json }> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(new URL(pathname, init.origin ?? this.origin), {
      method: init.method ?? (init.body === undefined && !init.form ? 'GET' : 'POST'),
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init.form ? { body: init.form } : {}),
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name!);
      else this.cookies.set(name!, value.join('='));
    }
    const text = await response.text();
    let body: Json = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // CSV and the like stay text.
    }
    return { status: response.status, body };
  }

  get accessToken() {
    return this.cookies.get('ld_access')!;
  }
}

/**
 * People of a store, through the gateway at `origin`: signed up (with identity's table set
 * directly where a test needs a plan or a confirmed e-mail), invited, acting for a store.
 */
export function storePeople({ db, origin }: { db: Pool; origin: string }) {
  /** Signed up through the gateway, e-mail confirmed, on `plan` (set in identity's table). */
  async function signUp(plan = 'free'): Promise<Person> {
    const person = new Person(`team-${randomUUID()}@example.com`, origin);
    const created = await person.call('/api/auth/sign-up', {
      body: {
        fullName: 'Team Test',
        email: person.email,
        password: 'correct horse battery',
        acceptTerms: true,
      },
    });
    expect(created.status).toBe(201);
    person.userId = created.body.user.id;
    await db.query('UPDATE identity.users SET email_verified_at = now() WHERE id = $1', [
      person.userId,
    ]);
    await db.query('UPDATE identity.profiles SET plan = $2 WHERE id = $1', [person.userId, plan]);
    expect((await person.call('/api/auth/refresh', { body: {} })).status).toBe(200);
    return person;
  }

  async function inviteLink(email: string): Promise<string> {
    let token: string | undefined;
    await expect
      .poll(
        async () => {
          const { rows } = await db.query<{ text_body: string }>(
            'SELECT text_body FROM mailbox.messages WHERE recipient = $1 ORDER BY id DESC LIMIT 1',
            [email],
          );
          token = /\/invite\?token=([\w-]+)/.exec(rows[0]?.text_body ?? '')?.[1];
          return token;
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBeTruthy();
    return token!;
  }

  /** Invited by the owner, accepted, and switched into the owner's store. */
  async function member(owner: Person, role: string): Promise<Person> {
    const person = await signUp();
    const invited = await owner.call(`/api/auth/stores/${owner.userId}/invites`, {
      body: { email: person.email, role },
    });
    expect(invited.status).toBe(201);
    const accepted = await person.call('/api/auth/invites/accept', {
      body: { token: await inviteLink(person.email) },
    });
    expect(accepted.status).toBe(200);
    const acting = await person.call(`/api/auth/stores/${owner.userId}/act`, { body: {} });
    expect(acting.status).toBe(200);
    expect(acting.body.acting).toMatchObject({ storeId: owner.userId, role });
    return person;
  }

  /** A small file uploaded by `person`, through `origin` unless told; its id. */
  async function upload(person: Person, through?: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new TextEncoder().encode(`bytes ${randomUUID()}`)]), 'notes.txt');
    const uploaded = await person.call('/api/uploads', {
      form,
      ...(through ? { origin: through } : {}),
    });
    expect(uploaded.status).toBe(201);
    return uploaded.body.id;
  }

  return { signUp, member, upload };
}
