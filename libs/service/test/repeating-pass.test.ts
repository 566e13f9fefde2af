import { describe, expect, it } from 'vitest';
import { startRepeatingPass } from '../src/index.js';

const recordingLogger = () => {
  const lines: string[] = [];
  return {
    lines,
    warn: (object: object, message: string) => lines.push(`warn ${message}`),
    error: (object: object, message: string) => lines.push(`error ${message}`),
  };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('startRepeatingPass', () => {
  it('runs pass after pass, never two at once, and goes on after a failed one', async () => {
    const logger = recordingLogger();
    let running = 0;
    let overlapped = false;
    let passes = 0;
    const loop = startRepeatingPass(
      async () => {
        passes += 1;
        running += 1;
        overlapped ||= running > 1;
        // Longer than the interval: a timer that did not wait for the pass would overlap it.
        await sleep(15);
        running -= 1;
        if (passes === 2)
          throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
        if (passes === 3) throw new Error('column "x" does not exist');
      },
      { intervalMs: 5, logger, failure: 'pass failed' },
    );
    while (passes < 5) await sleep(5);
    await loop.stop();
    expect(overlapped).toBe(false);
    // The outage is a warning, the defect an error; the passes after both still ran.
    expect(logger.lines).toEqual(['warn pass failed', 'error pass failed']);
  });

  it('stop tells the pass under way, and waits until it has ended', async () => {
    let started = 0;
    let ended = false;
    let sawStop = false;
    const loop = startRepeatingPass(
      async (stopped) => {
        started += 1;
        while (!stopped()) await sleep(5);
        sawStop = true;
        await sleep(20);
        ended = true;
      },
      { intervalMs: 5, logger: recordingLogger(), failure: 'pass failed' },
    );
    while (started === 0) await sleep(5);
    await loop.stop();
    expect({ sawStop, ended }).toEqual({ sawStop: true, ended: true });
  });
});
