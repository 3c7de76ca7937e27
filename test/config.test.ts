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

describe('SUBSCRIPTIONS_PER_TOKEN, _PER_USER, _PER_ADDRESS and SUBSCRIPTION_IDLE_SECONDS', () => {
  it('bound live streams by default, or as set', () => {
    expect(loadConfig({}).events.limits).toEqual({ maxPerToken: 10, maxPerUser: 20, maxPerAddress: 100, idleMs: 1_800_000 });
    const set = loadConfig({ SUBSCRIPTIONS_PER_TOKEN: '2', SUBSCRIPTIONS_PER_USER: '3', SUBSCRIPTIONS_PER_ADDRESS: '500', SUBSCRIPTION_IDLE_SECONDS: '60' });
    expect(set.events.limits).toEqual({ maxPerToken: 2, maxPerUser: 3, maxPerAddress: 500, idleMs: 60_000 });
  });

  it('refuses an idle lifetime that is not a positive whole number of seconds, naming the variable', () => {
    for (const value of ['0', '-1', '2.5', 'never']) {
      expect(() => loadConfig({ SUBSCRIPTION_IDLE_SECONDS: value }), value).toThrow(/^Invalid configuration:\nSUBSCRIPTION_IDLE_SECONDS: /);
    }
    expect(() => loadConfig({ SUBSCRIPTIONS_PER_ADDRESS: 'many' })).toThrow(/^Invalid configuration:\nSUBSCRIPTIONS_PER_ADDRESS: /);
  });
});

describe('DOCS_GATEWAY_COMMAND', () => {
  it("names the command in serve's hints: npx docs-gateway in a checkout, or as set (the container image sets its own)", () => {
    expect(loadConfig({}).command).toBe('npx docs-gateway');
    expect(loadConfig({ DOCS_GATEWAY_COMMAND: 'docker run --rm … docs-gateway' }).command).toBe('docker run --rm … docs-gateway');
    expect(() => loadConfig({ DOCS_GATEWAY_COMMAND: ' ' })).toThrow(/^Invalid configuration:\nDOCS_GATEWAY_COMMAND: /);
  });
});

describe('FILES_STORAGE', () => {
  it('keeps files on disk by default, or in the S3-compatible bucket the S3_ settings name, refusing an incomplete one', () => {
    expect(loadConfig({ FILES_DIR: '/srv/files' }).fileStorage).toEqual({ kind: 'disk', dir: '/srv/files' });
    expect(
      loadConfig({
        FILES_STORAGE: 's3',
        S3_BUCKET: 'docs',
        S3_PREFIX: 'gateway/',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_FORCE_PATH_STYLE: 'true',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
      }).fileStorage,
    ).toEqual({
      kind: 's3',
      bucket: 'docs',
      prefix: 'gateway/',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
    });
    // Without keys, the AWS SDK finds credentials itself (environment, instance roles).
    expect(loadConfig({ FILES_STORAGE: 's3', S3_BUCKET: 'docs' }).fileStorage).toMatchObject({ kind: 's3', credentials: undefined, prefix: '' });
    expect(() => loadConfig({ FILES_STORAGE: 'ftp' })).toThrow(/^Invalid configuration:\nFILES_STORAGE: must be disk or s3/);
    expect(() => loadConfig({ FILES_STORAGE: 's3' })).toThrow(/^Invalid configuration:\nS3_BUCKET: needed with FILES_STORAGE=s3/);
    expect(() => loadConfig({ FILES_STORAGE: 's3', S3_BUCKET: 'Docs_Bucket' })).toThrow(/^Invalid configuration:\nS3_BUCKET: must be a bucket name/);
    expect(() => loadConfig({ FILES_STORAGE: 's3', S3_BUCKET: 'docs', S3_PREFIX: 'no-slash' })).toThrow(/^Invalid configuration:\nS3_PREFIX: /);
    expect(() => loadConfig({ FILES_STORAGE: 's3', S3_BUCKET: 'docs', S3_ACCESS_KEY_ID: 'key' })).toThrow(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: give both/,
    );
  });
});

describe('SAML_REDIRECT_ORIGINS', () => {
  it('allows no sign-in redirects by default, the listed origins when set, and refuses * and what is no origin', () => {
    expect(loadConfig({}).samlRedirectOrigins).toEqual([]);
    expect(loadConfig({ SAML_REDIRECT_ORIGINS: 'https://app.example.com, http://localhost:5173/' }).samlRedirectOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(() => loadConfig({ SAML_REDIRECT_ORIGINS: '*' })).toThrow(/^Invalid configuration:\nSAML_REDIRECT_ORIGINS: "\*" is not allowed/);
    expect(() => loadConfig({ SAML_REDIRECT_ORIGINS: 'https://app.example.com/signed-in' })).toThrow(/^Invalid configuration:\nSAML_REDIRECT_ORIGINS: /);
  });
});

describe('GIT_CREDENTIALS_KEY and GIT_POLL_INTERVAL_SECONDS', () => {
  it('takes 32 bytes as hex or base64, none by default; polls every 5 minutes unless set', () => {
    expect(loadConfig({}).gitSync.credentialsKey).toBeUndefined();
    expect(loadConfig({}).gitSync.pollIntervalMs).toBe(300_000);
    expect(loadConfig({ GIT_CREDENTIALS_KEY: '07'.repeat(32) }).gitSync.credentialsKey).toEqual(Buffer.alloc(32, 7));
    expect(loadConfig({ GIT_CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64') }).gitSync.credentialsKey).toEqual(Buffer.alloc(32, 7));
    expect(loadConfig({ GIT_POLL_INTERVAL_SECONDS: '60' }).gitSync.pollIntervalMs).toBe(60_000);
  });

  it('refuses a key of another length, naming the variable (and not repeating the value)', () => {
    for (const value of ['short', '07'.repeat(16), Buffer.alloc(16).toString('base64')]) {
      expect(() => loadConfig({ GIT_CREDENTIALS_KEY: value }), value).toThrow(/^Invalid configuration:\nGIT_CREDENTIALS_KEY: must be 32 bytes/);
    }
  });
});

describe('PAGE_PARSE_BUDGET_MS', () => {
  it('gives a large body 10 s on the worker pool by default, or as set', () => {
    expect(loadConfig({}).parseBudgetMs).toBe(10_000);
    expect(loadConfig({ PAGE_PARSE_BUDGET_MS: '30000' }).parseBudgetMs).toBe(30_000);
  });

  it('refuses a budget under 100 ms, over 10 minutes or not a whole number, naming the variable', () => {
    for (const value of ['0', '99', '600001', '1.5', 'long']) {
      expect(() => loadConfig({ PAGE_PARSE_BUDGET_MS: value }), value).toThrow(/^Invalid configuration:\nPAGE_PARSE_BUDGET_MS: /);
    }
  });
});
