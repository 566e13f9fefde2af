import type { Migration } from '@lockdrop/db';

/**
 * The balance check ran once per ledger line at commit (a deferred row trigger on
 * `ledger_entries`), each summing the line's whole journal: four sums per payment, twelve for a
 * payment that also paid a plan. Now each statement notes the journals it wrote (a statement
 * trigger over its transition table) in `ledger_journals_to_check`, and one deferred check at
 * commit sums every noted journal in one query and empties the table (issue 31). The first
 * deferred firing checks them all; the rest find nothing left to check. An unbalanced journal is
 * still refused at commit; the table is empty outside a transaction that is writing journals.
 */
export const ledgerBalancePerTransaction: Migration = {
  id: '0016_ledger_balance_per_transaction',
  sql: `
    DROP TRIGGER ledger_journal_balanced ON ledger_entries;
    DROP FUNCTION ledger_journal_balanced();

    CREATE TABLE ledger_journals_to_check (journal_id uuid PRIMARY KEY);

    CREATE FUNCTION ledger_note_journals() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ledger_journals_to_check (journal_id)
        SELECT DISTINCT journal_id FROM written ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ledger_note_journals AFTER INSERT ON ledger_entries
      REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION ledger_note_journals();

    CREATE FUNCTION ledger_check_journals() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      unbalanced uuid;
    BEGIN
      WITH checked AS (DELETE FROM ledger_journals_to_check RETURNING journal_id)
      SELECT e.journal_id INTO unbalanced
        FROM ledger_entries e JOIN checked USING (journal_id)
        GROUP BY e.journal_id
        HAVING sum(e.amount_minor) <> 0 OR count(DISTINCT e.currency) <> 1
        LIMIT 1;
      IF unbalanced IS NOT NULL THEN
        RAISE EXCEPTION 'ledger journal % is not balanced in one currency', unbalanced;
      END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER ledger_check_journals AFTER INSERT ON ledger_journals_to_check
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_check_journals();
  `,
};
