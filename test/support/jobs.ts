import { createContext } from '../../src/context.ts';
import type { JobLog, JobRunner } from '../../src/jobs/queue.ts';
import { TEST_URLS, type TestApp } from './app.ts';

export interface JobLogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

/** A job queue logger that keeps its lines for the test to read. */
export function jobLog(): JobLog & { lines: JobLogLine[] } {
  const lines: JobLogLine[] = [];
  const at = (level: JobLogLine['level']) => (fields: unknown, message?: unknown) => {
    lines.push({ level, message: String(message ?? ''), fields: (fields ?? {}) as Record<string, unknown> });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as JobLog & { lines: JobLogLine[] };
}

/** Runs jobs on the test app's database and clock, keeping the log lines. */
export function jobRunner(t: TestApp): JobRunner & { log: ReturnType<typeof jobLog> } {
  return { log: jobLog(), context: () => createContext({ database: t.database, viewer: null, clock: t.clock, urls: TEST_URLS }) };
}
