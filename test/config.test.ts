import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';

/** The environment docs-gateway reads, validated once at start (src/config.ts). */

describe('DATABASE_LOCK_TIMEOUT_MS', () => {
  it('bounds lock waits to 3 s by default, or as set', () => {
    expect(loadConfig({}).database).toEqual({ poolSize: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 15_000, lockTimeoutMs: 3_000 });
    expect(loadConfig({ DATABASE_LOCK_TIMEOUT_MS: '250' }).database.lockTimeoutMs).toBe(250);
  });

  it('refuses a value that is not a positive whole number of milliseconds, naming the variable', () => {
    for (const value of ['0', '-5', '1.5', 'soon']) {
      expect(() => loadConfig({ DATABASE_LOCK_TIMEOUT_MS: value }), value).toThrow(/^Invalid configuration:\nDATABASE_LOCK_TIMEOUT_MS: /);
    }
  });
});
