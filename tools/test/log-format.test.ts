import { describe, expect, it } from 'vitest';
import { formatLogLine } from '../log-format.mjs';

const line = (entry: Record<string, unknown>) =>
  formatLogLine(JSON.stringify({ level: 40, time: 0, msg: 'outbox relay pass failed', ...entry }));

describe('the readable log line of npm start', () => {
  it('shows a serialised error by its type and message', () => {
    expect(line({ err: { type: 'TypeError', message: 'x is not a function' } })).toContain(
      '— TypeError: x is not a function',
    );
  });

  it('shows the message a logger passed as a string', () => {
    expect(line({ err: 'connect ECONNREFUSED 127.0.0.1:5432' })).toContain(
      '— connect ECONNREFUSED 127.0.0.1:5432',
    );
  });

  it('shows the reasons inside an error with an empty message', () => {
    const err = {
      type: 'AggregateError',
      message: '',
      aggregateErrors: [
        { message: 'connect ECONNREFUSED ::1:5432' },
        { message: 'connect ECONNREFUSED 127.0.0.1:5432' },
      ],
    };
    expect(line({ err })).toContain(
      '— AggregateError: connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432',
    );
  });
});
