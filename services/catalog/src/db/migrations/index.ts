import type { Migration } from '@lockdrop/db';

/** Forward-only, in id order; never edit one that has shipped — add the next. */
export const migrations: Migration[] = [];
