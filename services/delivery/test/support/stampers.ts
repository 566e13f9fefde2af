import { readdir, readFile } from 'node:fs/promises';

/**
 * The stamping processes this test process has running, as the kernel lists them (`/proc`):
 * children of this process whose command line carries a stamp job. Counted from the operating
 * system, not from anything delivery records about itself.
 */
export async function stampProcesses(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state, then the parent's pid.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      const commandLine = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (commandLine.includes('"kind":"stamp"')) pids.push(Number(entry));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return pids;
}

export interface StamperWatch {
  /** Every stamping process seen, in the order they appeared. */
  seen: number[];
  /** The most seen alive at the same time. */
  mostAtOnce: number;
  stop(): Promise<void>;
}

/**
 * Watches the stamping processes while a test runs, calling `onStart` once for each new one
 * (to pause it with SIGSTOP, or kill it as the OOM killer would).
 */
export function watchStampers(onStart: (pid: number) => void = () => undefined): StamperWatch {
  const watch: StamperWatch = { seen: [], mostAtOnce: 0, stop: async () => undefined };
  let watching = true;
  const loop = (async () => {
    while (watching) {
      const alive = await stampProcesses();
      watch.mostAtOnce = Math.max(watch.mostAtOnce, alive.length);
      for (const pid of alive) {
        if (watch.seen.includes(pid)) continue;
        watch.seen.push(pid);
        onStart(pid);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  watch.stop = async () => {
    watching = false;
    await loop;
  };
  return watch;
}

/** Sends `signal` to a process that may have ended already. */
export function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone: nothing to signal.
  }
}
