import type { JobLog } from '../../src/jobs/queue.ts';

export interface JobLogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown>;
}

/** A job queue logger that keeps its lines for the test to read. */
export function jobLog(): JobLog & { lines: JobLogLine[] } {
  const lines: JobLogLine[] = [];
  const at =
    (level: JobLogLine['level']) =>
    (fields: unknown, message?: unknown) => {
      lines.push({ level, message: String(message ?? ''), fields: (fields ?? {}) as Record<string, unknown> });
    };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') } as JobLog & { lines: JobLogLine[] };
}
