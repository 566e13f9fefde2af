import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Statements one connection keeps prepared. Query texts are constants in our code, so a
 * service has a few dozen; the bound only matters for text built per call (a multi-row
 * INSERT of varying length), which beyond it runs unprepared.
 */
export const PREPARED_PER_CONNECTION = 256;
const KNOWN_TEXTS = 4096;

const names = new Map<string, string>();
/** feature_not_supported: "cached plan must not change result type". */
const STALE_PLAN = '0A000';

function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < KNOWN_TEXTS) {
    name = `ld_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
}

interface QueryObject {
  text?: unknown;
  name?: unknown;
  values?: unknown;
  rows?: unknown;
  submit?: unknown;
}

/**
 * A pg client that prepares each parameterised statement once per connection and then only
 * binds and executes it. node-postgres sends unnamed statements, which Postgres parses and
 * plans again on every call: on our two-core machines that was about half of Postgres' CPU
 * per statement (a 16-column INSERT: 155 → 70 µs), and Postgres is the biggest share of a
 * payment's path (issue 11). Statements without parameters stay on the simple protocol,
 * where one text may hold several statements (migrations).
 */
export class PreparingClient extends pg.Client {
  readonly #prepared = new Set<string>();
  /** Statements whose prepared form went stale here, by text: they are prepared again anew. */
  readonly #renamed = new Map<string, string>();

  // pg's own overloads (text or config, values or callback) pass through unchanged.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(config: any, values?: any, callback?: any): any {
    const named = this.#named(config, values);
    if (named === undefined) return super.query(config, values, callback);
    const given = typeof values === 'function' ? values : callback;
    if (typeof given === 'function') {
      return super.query(named, (error: Error | null, result: unknown) => {
        if (error) this.#forgetIfStale(named, error);
        given(error, result);
      });
    }
    return (super.query(named) as Promise<unknown>).catch((error: Error) => {
      this.#forgetIfStale(named, error);
      throw error;
    });
  }

  /**
   * A migration that changes the columns a prepared `SELECT *` or `RETURNING *` returns makes
   * Postgres refuse that statement on this connection for good. The failed call fails; the next
   * one prepares the text again under a new name (a rolling deploy migrates under old replicas).
   */
  #forgetIfStale(query: pg.QueryConfig, error: Error): void {
    const { code, message } = error as Error & { code?: string };
    if (code !== STALE_PLAN || !message.includes('cached plan')) return;
    this.#renamed.set(query.text, `${query.name}_${this.#renamed.size + 1}`);
  }

  #named(config: unknown, values: unknown): pg.QueryConfig | undefined {
    let query: QueryObject;
    if (typeof config === 'string') query = { text: config, values };
    else if (typeof config === 'object' && config !== null) query = config as QueryObject;
    else return undefined;
    if (
      typeof query.text !== 'string' ||
      query.name !== undefined ||
      query.rows !== undefined ||
      typeof query.submit === 'function' ||
      !Array.isArray(query.values) ||
      query.values.length === 0
    )
      return undefined;
    const name = this.#renamed.get(query.text) ?? statementName(query.text);
    if (name === undefined) return undefined;
    if (!this.#prepared.has(name)) {
      if (this.#prepared.size >= PREPARED_PER_CONNECTION) return undefined;
      this.#prepared.add(name);
    }
    return { ...(query as pg.QueryConfig), name };
  }
}
