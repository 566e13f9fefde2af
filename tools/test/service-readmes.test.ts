import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { eventTypes } from '@lockdrop/contracts';
import { describe, expect, it } from 'vitest';

/**
 * Every service has the same skeleton and a README card saying what it owns, emits and
 * consumes (issue 12). The card is prose for people; this test keeps its event lists true to
 * the code: what a service emits is what libs/contracts declares for it, and every durable
 * consumer the service starts is listed.
 */

const root = path.join(import.meta.dirname, '..', '..');
const services = readdirSync(path.join(root, 'services'));
const CORE = ['main.ts', 'app.ts', 'config.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function card(service: string): Record<string, string> {
  const readme = readFileSync(path.join(root, 'services', service, 'README.md'), 'utf8');
  const block = /<!-- service-card[^>]*-->([\s\S]*?)<!-- \/service-card -->/.exec(readme)?.[1];
  if (!block) throw new Error(`services/${service}/README.md has no service card`);
  return Object.fromEntries(
    [...block.matchAll(/^\| \*\*(\w+)\*\* +\| (.*?) *\|$/gm)].map(([, key, value]) => [key, value]),
  );
}

/** The backticked event types of a card row, up to its first `;` (what follows is commands). */
const eventsIn = (row = '') =>
  [...(row.split(';')[0] ?? '').matchAll(/`([a-z_.*]+)`/g)].map(([, type]) => type!);

const knownType = (type: string) =>
  type.endsWith('.*')
    ? eventTypes.some((known) => known.startsWith(type.slice(0, -1)))
    : (eventTypes as string[]).includes(type);

describe.each(services)('services/%s', (service) => {
  const src = path.join(root, 'services', service, 'src');
  const code = sourceFiles(src).map((file) => readFileSync(file, 'utf8'));

  it('has the common skeleton and names its consumers events/<topic>.consumer.ts', () => {
    for (const file of CORE) expect(existsSync(path.join(src, file)), file).toBe(true);
    const events = path.join(src, 'events');
    if (existsSync(events))
      for (const file of readdirSync(events))
        expect(file, `events/${file}`).toMatch(/^[a-z-]+\.(consumer|producer)\.ts$/);
  });

  it('lists in its README what it emits: the events libs/contracts declares for it', () => {
    const declared = path.join(root, 'libs', 'contracts', 'src', 'events', `${service}.ts`);
    // The keys of the service's registry object (`<service>Events = { 'type': … }`).
    const registry = existsSync(declared)
      ? (readFileSync(declared, 'utf8').split(/Events = \{/)[1] ?? '')
      : '';
    const expected = [...registry.matchAll(/^ {2}'([a-z_.]+)'/gm)].map(([, type]) => type);
    expect(eventsIn(card(service).Emits).sort()).toEqual(expected.sort());
  });

  it('lists in its README every event it consumes, each a real event type', () => {
    const listed = eventsIn(card(service).Consumes);
    for (const type of listed) expect(knownType(type), type).toBe(true);
    const filters = code.flatMap((text) =>
      [...text.matchAll(/filter: '([a-z_.*]+)'/g)].map(([, type]) => type!),
    );
    const startsInfrastructure = code.some((text) => text.includes('createServiceApp('));
    // Every service built on libs/service prunes its bookkeeping on the worker's retention.due.
    if (startsInfrastructure) filters.push('retention.due');
    for (const type of new Set(filters)) expect(listed, `consumes ${type}`).toContain(type);
  });
});
