import type { Migration } from '@lockdrop/db';

/**
 * The ledger's balance check, once per transaction (issue 31). 0016 noted each written journal
 * in `ledger_journals_to_check` and fired a deferred check per noted journal; the first firing
 * emptied the table with an unqualified `DELETE` and the rest found nothing. Each firing still
 * scanned the table, and a table emptied a hundred times a second is mostly dead rows until
 * autovacuum comes by: at a steady 300 payments/s the check cost 4.8 ms per journal, Postgres'
 * largest cost by far (pg_stat_statements over the bench's steady scenario).
 *
 * Now the journals are noted under their transaction's id, and one marker row per transaction
 * (`ledger_checks_due`, inserted `ON CONFLICT DO NOTHING`, so only the first statement of a
 * transaction creates it) carries the deferred trigger: one firing per transaction, which takes
 * that transaction's rows by key. A check run early (`SET CONSTRAINTS … IMMEDIATE`) removes the
 * marker, so journals written after it arm a new one. An unbalanced journal is refused at commit
 * as before; both tables are empty outside a transaction writing journals.
 */
export const ledgerCheckOnce: Migration = {
  id: '0150_ledger_check_once',
  sql: `
    DROP TRIGGER ledger_check_journals ON ledger_journals_to_check;
    DROP FUNCTION ledger_check_journals();
    DROP TRIGGER ledger_note_journals ON ledger_entries;
    DROP FUNCTION ledger_note_journals();
    DROP TABLE ledger_journals_to_check;

    CREATE TABLE ledger_journals_to_check (
      xact xid8 NOT NULL,
      journal_id uuid NOT NULL,
      PRIMARY KEY (xact, journal_id)
    );
    CREATE TABLE ledger_checks_due (xact xid8 PRIMARY KEY);

    CREATE FUNCTION ledger_note_journals() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ledger_journals_to_check (xact, journal_id)
        SELECT DISTINCT pg_current_xact_id(), journal_id FROM written ON CONFLICT DO NOTHING;
      INSERT INTO ledger_checks_due (xact) VALUES (pg_current_xact_id()) ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ledger_note_journals AFTER INSERT ON ledger_entries
      REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION ledger_note_journals();

    CREATE FUNCTION ledger_check_journals() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      journals uuid[];
      unbalanced uuid;
    BEGIN
      DELETE FROM ledger_checks_due WHERE xact = NEW.xact;
      WITH checked AS (
        DELETE FROM ledger_journals_to_check WHERE xact = NEW.xact RETURNING journal_id
      )
      SELECT array_agg(journal_id) INTO journals FROM checked;
      -- By the journal index, as an array: joined to the DELETE's output instead, the planner
      -- guessed its size from a table of dead rows and scanned the whole ledger (16 ms a check).
      SELECT e.journal_id INTO unbalanced
        FROM ledger_entries e
        WHERE e.journal_id = ANY (journals)
        GROUP BY e.journal_id
        HAVING sum(e.amount_minor) <> 0 OR count(DISTINCT e.currency) <> 1
        LIMIT 1;
      IF unbalanced IS NOT NULL THEN
        RAISE EXCEPTION 'ledger journal % is not balanced in one currency', unbalanced;
      END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER ledger_check_journals AFTER INSERT ON ledger_checks_due
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_journals();
  `,
};
