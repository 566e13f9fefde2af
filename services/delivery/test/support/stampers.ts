import { readdir, readFile } from 'node:fs/promises';

/**
 * The stamping processes this test process has running, as the kernel lists them: its children
 * (`/proc/<pid>/task/<tid>/children`, a few bytes per thread — cheap enough to sweep every
 * millisecond even on a loaded machine, where walking all of /proc let a short stamper start and
 * end unseen) whose command line carries a stamp job. Counted from the operating system, not from
 * anything delivery records about itself.
 */
export async function stampProcesses(): Promise<number[]> {
  const children: number[] = [];
  for (const thread of await readdir(`/proc/${process.pid}/task`)) {
    try {
      const listed = await readFile(`/proc/${process.pid}/task/${thread}/children`, 'utf8');
      for (const pid of listed.split(' ')) if (pid.trim()) children.push(Number(pid));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  const pids: number[] = [];
  for (const pid of children) {
    try {
      const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      if (commandLine.includes('"kind":"stamp"')) pids.push(pid);
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
      await new Promise((resolve) => setTimeout(resolve, 1));
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
