import { randomBytes } from 'node:crypto';
import { createPool } from '@lockdrop/db';
import { createTestDatabase, deleteStreams, testEnv, testNamespace } from '@lockdrop/testing';
import { afterAll, expect, it } from 'vitest';
import { startInfrastructure, type Infrastructure } from '../src/index.js';

const database = await createTestDatabase();
const namespace = testNamespace();
const suffix = randomBytes(4).toString('hex');
const started: Infrastructure[] = [];

afterAll(async () => {
  await Promise.all(started.map((infra) => infra.close()));
  await deleteStreams(testEnv.natsUrl, namespace);
  await database.drop();
  const admin = createPool({ connectionString: testEnv.databaseUrl, schema: 'public', max: 1 });
  for (const role of ['alpha', 'beta', 'gamma'])
    await admin.query(`DROP ROLE IF EXISTS t${suffix}_${role}`);
  await admin.end();
});

const roleUrl = (role: string) => {
  const url = new URL(database.url);
  url.username = `t${suffix}_${role}`;
  url.password = `pw-${role}-${suffix}`;
  return url.toString();
};

const notes = {
  id: '0001_notes',
  sql: `
    CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL);
    CREATE FUNCTION notes_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'notes are append-only'; END $$;
    CREATE TRIGGER notes_append_only BEFORE DELETE ON notes
      FOR EACH ROW EXECUTE FUNCTION notes_append_only();
  `,
};

async function start(name: string, admin: boolean) {
  const infra = await startInfrastructure({
    name,
    databaseUrl: roleUrl(name),
    adminDatabaseUrl: admin ? database.url : undefined,
    natsUrl: testEnv.natsUrl,
    busNamespace: namespace,
    migrations: [notes],
    logger: {
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
      debug: () => undefined,
    },
  });
  started.push(infra);
  return infra;
}

const denied = { code: '42501' };

it('each service runs as a role of its own that can touch its own rows and nothing else', async () => {
  const alpha = await start('alpha', true);
  const beta = await start('beta', true);

  await alpha.pool.query(`INSERT INTO notes (id, body) VALUES (1, 'mine')`);
  expect((await alpha.pool.query('SELECT body FROM notes')).rows).toEqual([{ body: 'mine' }]);
  await beta.pool.query(`INSERT INTO notes (id, body) VALUES (1, 'theirs')`);

  // Another service's schema is closed, reading or writing.
  await expect(alpha.pool.query('SELECT * FROM beta.notes')).rejects.toMatchObject(denied);
  await expect(alpha.pool.query(`INSERT INTO beta.notes VALUES (2, 'x')`)).rejects.toMatchObject(
    denied,
  );
  // Not even its own tables' guards can be removed, nor new tables made: the admin owns the schema.
  await expect(alpha.pool.query('DROP TRIGGER notes_append_only ON notes')).rejects.toMatchObject(
    denied,
  );
  await expect(alpha.pool.query('ALTER TABLE notes DISABLE TRIGGER ALL')).rejects.toMatchObject(
    denied,
  );
  await expect(alpha.pool.query('CREATE TABLE sneaky (id int)')).rejects.toMatchObject(denied);
  await expect(alpha.pool.query('DELETE FROM notes')).rejects.toThrow(/append-only/);
  // The bus bookkeeping works under the role (outbox, processed events).
  await alpha.pool.query(
    `INSERT INTO processed_events (consumer, event_id) VALUES ('c', gen_random_uuid())`,
  );

  // A replica started without the admin URL runs on the migrations already applied.
  const replica = await start('alpha', false);
  expect((await replica.pool.query('SELECT count(*)::int AS n FROM notes')).rows[0].n).toBe(1);
});

it('takes the multi-host URLs a primary and its standby are named by, for the role split too', async () => {
  // `new URL` refuses `h1:5432,h2:5432`; the first host here refuses connections, as a lost primary would.
  const multiHost = (url: string) =>
    url.replace('@127.0.0.1:5432/', '@127.0.0.1:1,127.0.0.1:5432/');
  const admin = multiHost(database.url);
  expect(admin).not.toBe(database.url);
  const gamma = await startInfrastructure({
    name: 'gamma',
    databaseUrl: multiHost(roleUrl('gamma')),
    adminDatabaseUrl: admin,
    natsUrl: testEnv.natsUrl,
    busNamespace: namespace,
    migrations: [notes],
    logger: {
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
      debug: () => undefined,
    },
  });
  started.push(gamma);
  await gamma.pool.query(`INSERT INTO notes (id, body) VALUES (1, 'through the standby list')`);
  expect((await gamma.pool.query('SELECT current_user AS role')).rows[0].role).toBe(
    `t${suffix}_gamma`,
  );
  await expect(gamma.pool.query('SELECT * FROM alpha.notes')).rejects.toMatchObject(denied);
});
