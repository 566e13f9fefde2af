import type { Queryable } from '@lockdrop/db';

/** The raw JSON value of a setting, or undefined when the key has no row. */
export async function readSetting(db: Queryable, key: string): Promise<unknown> {
  const { rows } = await db.query<{ setting_value: unknown }>(
    'SELECT setting_value FROM platform_settings WHERE setting_key = $1',
    [key],
  );
  return rows[0]?.setting_value;
}
