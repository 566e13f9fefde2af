import type { DomainEvent } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import { recordDownloads, type CompletedDownload } from '../db/downloads.repo.js';

/**
 * How long the first completed download of a group waits for others. Measured on 2 cores, 45 MiB
 * files through the nginx edge: recording each download on its own (its row, the outbox relay's
 * pass, the NATS publish, analytics' transaction) cost 6.5 of the 8 ms that a download cost
 * beyond nginx's own work, and held the edge at 0.79 of plain nginx; without the record it was
 * at 0.99. A tenth of a second groups the downloads of a busy edge and is nothing to a sales count.
 */
const COMPLETION_WINDOW_MS = 100;
/** A group is written at once when it reaches this many downloads (one statement stays small). */
const COMPLETION_GROUP_LIMIT = 500;

export interface CompletionLog {
  /** Resolves once these rows and events are committed, with the group they were written in. */
  record(downloads: CompletedDownload[], events: DomainEvent[]): Promise<void>;
  /** Writes what is pending now and waits for every group under way (the service is stopping). */
  close(): Promise<void>;
}

interface Group {
  downloads: CompletedDownload[];
  events: DomainEvent[];
  waiting: { resolve: () => void; reject: (error: unknown) => void }[];
}

/**
 * Completed downloads written in groups: every download that completes within
 * COMPLETION_WINDOW_MS of the group's first goes into one statement with its events, so a busy
 * edge costs Postgres one insert, the relay one pass and analytics one batch per group rather
 * than per download.
 * A record reaches the table at most that long after the bytes were handed over. Closing
 * writes what is pending, so a restart loses none; a crash inside the window loses that
 * group's records, as a crash between the answer and its insert always could (the file was
 * sent either way; the record is for counting).
 */
export function createCompletionLog({ db }: { db: Queryable }): CompletionLog {
  let pending: Group | null = null;
  let timer: NodeJS.Timeout | undefined;
  const writing = new Set<Promise<void>>();

  const writePending = (): void => {
    clearTimeout(timer);
    timer = undefined;
    const group = pending;
    pending = null;
    if (!group) return;
    const written = recordDownloads(db, group.downloads, group.events).then(
      () => group.waiting.forEach(({ resolve }) => resolve()),
      (error: unknown) => group.waiting.forEach(({ reject }) => reject(error)),
    );
    writing.add(written);
    void written.finally(() => writing.delete(written));
  };

  return {
    record(downloads, events) {
      return new Promise<void>((resolve, reject) => {
        pending ??= { downloads: [], events: [], waiting: [] };
        pending.downloads.push(...downloads);
        pending.events.push(...events);
        pending.waiting.push({ resolve, reject });
        if (pending.downloads.length >= COMPLETION_GROUP_LIMIT) writePending();
        // Not unref'd: a pending record is work the process still owes.
        else timer ??= setTimeout(writePending, COMPLETION_WINDOW_MS);
      });
    },
    async close() {
      writePending();
      await Promise.all(writing);
    },
  };
}
