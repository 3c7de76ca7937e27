import { beforeAll, describe, expect, it, vi } from 'vitest';
import { providerOf } from '../../src/db/index.ts';
import { conflict } from '../../src/errors.ts';
import type { JobKind } from '../../src/context.ts';
import { callJob } from '../../src/domain/jobs.ts';
import { type JobQueue, jobSender } from '../../src/jobs/queue.ts';
import { openJobQueue } from '../../src/jobs/open-queue.ts';
import { createContext } from '../../src/context.ts';
import { TEST_URLS, type TestApp, createTestApp } from '../support/app.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { unique } from '../support/factories.ts';
import { jobRunner } from '../support/jobs.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const onPostgres = () => providerOf(t.database.url) === 'postgresql';

/** A queue on the run's database, stopped when the file ends. */
function queue() {
  const runner = jobRunner(t);
  const jobs = openJobQueue(t.database, runner);
  closeWhenFileEnds(() => jobs.stop());
  return { jobs, log: runner.log };
}

/** A kind of job that records each attempt and fails the first `failures` of them. */
function recordingKind(options: { failures?: number; retryLimit?: number } = {}) {
  const attempts: Array<{ id: string; attempt: number; data: object; by?: string }> = [];
  const kind: JobKind<{ n?: number }> & { attempts: typeof attempts } = {
    name: `test-${unique()}`,
    retryLimit: options.retryLimit ?? 2,
    timeoutSeconds: 30,
    attempts,
    async run(ctx, data, job) {
      expect(ctx.viewer).toBeNull();
      attempts.push({ ...job, data });
      if (attempts.length <= (options.failures ?? 0)) throw new Error(`attempt ${attempts.length} fails`);
    },
  };
  return kind;
}

const waitFor = (condition: () => boolean, timeout = 20_000) => vi.waitUntil(condition, { timeout, interval: 50 });

describe('job queue', () => {
  it('runs a job once with its data and logs its end', async () => {
    const { jobs, log } = queue();
    expect(jobs.backend).toBe(onPostgres() ? 'postgresql' : 'in-process');
    const kind = recordingKind();
    await jobs.work(kind);
    const id = await jobs.send(kind, { n: 7 });
    await waitFor(() => kind.attempts.length === 1);
    expect(kind.attempts[0]).toEqual({ id, attempt: 1, data: { n: 7 } });
    await waitFor(() => log.lines.some((line) => line.message === 'job done' && line.fields.jobId === id));
    expect(log.lines.find((line) => line.fields.jobId === id)!.fields).toMatchObject({ job: kind.name, attempt: 1 });
  });

  it('logs a run that found nothing to do (its kind says which) at debug, one that did something at info', async () => {
    const { jobs, log } = queue();
    const kind: JobKind<{ n: number }> = {
      name: `test-${unique()}`,
      retryLimit: 0,
      timeoutSeconds: 30,
      run: async (_ctx, data) => ({ handled: data.n }),
      idle: (output) => output.handled === 0,
    };
    await jobs.work(kind);
    const [idle, busy] = [await jobs.send(kind, { n: 0 }), await jobs.send(kind, { n: 2 })];
    await waitFor(() => [idle, busy].every((id) => log.lines.some((line) => line.message === 'job done' && line.fields.jobId === id)));
    const levelOf = (id: string | null) => log.lines.find((line) => line.fields.jobId === id)!.level;
    expect([levelOf(idle), levelOf(busy)]).toEqual(['debug', 'info']);
  });

  it('keeps a job sent before any instance works its kind', async () => {
    const { jobs } = queue();
    const kind = recordingKind();
    const id = await jobs.send(kind, { n: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(kind.attempts).toEqual([]);
    await jobs.work(kind);
    await waitFor(() => kind.attempts.length === 1);
    expect(kind.attempts[0]!.id).toBe(id);
  });

  it('retries a failing job, then succeeds', async () => {
    const { jobs, log } = queue();
    const kind = recordingKind({ failures: 1 });
    await jobs.work(kind);
    const id = await jobs.send(kind, {});
    await waitFor(() => log.lines.some((line) => line.message === 'job done' && line.fields.jobId === id));
    expect(kind.attempts.map((attempt) => [attempt.id, attempt.attempt])).toEqual([
      [id, 1],
      [id, 2],
    ]);
    expect(log.lines.filter((line) => line.fields.jobId === id).map((line) => [line.level, line.message])).toEqual([
      ['warn', 'job failed, will retry'],
      ['info', 'job done'],
    ]);
  });

  it('gives up after the retry limit and says so at error level', async () => {
    const { jobs, log } = queue();
    const kind = recordingKind({ failures: 100, retryLimit: 1 });
    await jobs.work(kind);
    const id = await jobs.send(kind, {});
    await waitFor(() => log.lines.some((line) => line.level === 'error' && line.fields.jobId === id));
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(kind.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2]);
    expect(log.lines.filter((line) => line.fields.jobId === id).map((line) => line.message)).toEqual(['job failed, will retry', 'job failed']);
  });

  it('keeps one job per window when asked, however many are sent', async () => {
    const { jobs } = queue();
    const kind = recordingKind();
    await jobs.work(kind);
    const ids = await Promise.all(Array.from({ length: 5 }, () => jobs.send(kind, {}, { oncePerSeconds: 3600 })));
    expect(ids.filter((id) => id !== null)).toHaveLength(1);
    await waitFor(() => kind.attempts.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(kind.attempts).toHaveLength(1);
  });
});

describe('waiting until the in-process queue has settled', () => {
  it('returns once a job just sent has run, the event loop turning meanwhile', async (context) => {
    if (onPostgres()) return context.skip();
    const { jobs } = queue();
    const kind = recordingKind();
    await jobs.work(kind);
    // Sent, not started: the queue holds only the timer that starts it.
    await jobs.send(kind, {});
    let turns = 0;
    const turning = setInterval(() => turns++, 1);
    await jobs.settled!(10_000);
    clearInterval(turning);
    // It returned because the job ran (not at its bound, the job still waiting), and other timers fired meanwhile.
    expect(kind.attempts).toHaveLength(1);
    expect(turns).toBeGreaterThan(0);
  });
});

describe('job queue shared by several instances (PostgreSQL)', () => {
  /** Two instances of the queue on one database, each recording what it ran. */
  async function twoInstances(kindName: string) {
    const ran: Array<{ id: string; by: string }> = [];
    const instance = async (by: string): Promise<JobQueue> => {
      const { jobs } = queue();
      await jobs.work({ name: kindName, retryLimit: 2, timeoutSeconds: 30, run: async (_ctx, _data, job) => void ran.push({ id: job.id, by }) });
      return jobs;
    };
    return { ran, one: await instance('one'), two: await instance('two') };
  }

  it('runs every job exactly once, whichever instance sent it', async (context) => {
    if (!onPostgres()) context.skip();
    const name = `shared-${unique()}`;
    const { ran, one, two } = await twoInstances(name);
    const kind: JobKind = { name, retryLimit: 2, timeoutSeconds: 30, run: async () => {} };
    const ids = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? one : two).send(kind, { i })));
    await waitFor(() => ran.length >= 16);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(ran.map((run) => run.id).sort()).toEqual([...ids].sort());
  });

  it('keeps one periodic job per window across instances', async (context) => {
    if (!onPostgres()) context.skip();
    const name = `periodic-${unique()}`;
    const { ran, one, two } = await twoInstances(name);
    const kind: JobKind = { name, retryLimit: 2, timeoutSeconds: 30, run: async () => {} };
    const sent = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? one : two).send(kind, {}, { oncePerSeconds: 3600 })));
    expect(sent.filter((id) => id !== null)).toHaveLength(1);
    await waitFor(() => ran.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(ran).toHaveLength(1);
  });

  it('keeps queued jobs across a restart', async (context) => {
    if (!onPostgres()) context.skip();
    const kind = recordingKind();
    const before = openJobQueue(t.database, jobRunner(t));
    const id = await before.send(kind, { n: 3 });
    await before.stop();
    const { jobs: after } = queue();
    await after.work(kind);
    await waitFor(() => kind.attempts.length === 1);
    expect(kind.attempts[0]).toMatchObject({ id, data: { n: 3 } });
  });
});

describe('waiting for a job (call)', () => {
  it('answers with what the job returned', async () => {
    const { jobs } = queue();
    const kind: JobKind<{ n: number }> = { name: `call-${unique()}`, retryLimit: 0, timeoutSeconds: 30, run: async (_ctx, { n }) => ({ doubled: n * 2 }) };
    await jobs.work(kind);
    expect(await jobs.call(kind, { n: 21 }, { timeoutMs: 20_000 })).toEqual({ doubled: 42 });
  });

  it("keeps a client error as the job's refusal, not retried, and callJob throws it again", async () => {
    const { jobs, log } = queue();
    const kind = recordingKind({ retryLimit: 2 });
    const refusing: JobKind = {
      ...kind,
      run: async (ctx, data, job) => {
        await kind.run(ctx, data, job);
        throw conflict('the content changed: try again');
      },
    };
    await jobs.work(refusing);
    const output = await jobs.call(refusing, {}, { timeoutMs: 20_000 });
    expect(output).toEqual({ refused: { status: 409, message: 'the content changed: try again' } });
    expect(kind.attempts).toHaveLength(1);
    expect(log.lines.filter((line) => line.fields.job === kind.name).map((line) => [line.level, line.message])).toEqual([['info', 'job refused']]);

    const ctx = createContext({ database: t.database, viewer: null, clock: t.clock, urls: TEST_URLS, jobs: jobSender(jobs) });
    await expect(callJob(ctx, refusing, {}, { timeoutMs: 20_000 })).rejects.toMatchObject({ status: 409, message: 'the content changed: try again' });
  });

  it('fails when the last attempt failed', async () => {
    const { jobs } = queue();
    const kind = recordingKind({ failures: 100, retryLimit: 1 });
    await jobs.work(kind);
    await expect(jobs.call(kind, {}, { timeoutMs: 20_000 })).rejects.toThrow(/attempt 2 fails/);
    expect(kind.attempts.map((attempt) => attempt.attempt)).toEqual([1, 2]);
  });

  it('gives up with a 503 when nobody takes the job in time, and the job never runs', async () => {
    const { jobs } = queue();
    const kind = recordingKind();
    await expect(jobs.call(kind, {}, { timeoutMs: 1_000 })).rejects.toMatchObject({
      status: 503,
      message: expect.stringContaining(`${kind.name} did not finish within 1 s`),
    });
    await jobs.work(kind);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(kind.attempts).toEqual([]);
  });

  it('answers with the output of a job another instance ran (PostgreSQL)', async (context) => {
    if (!onPostgres()) context.skip();
    const name = `remote-${unique()}`;
    const ranBy: string[] = [];
    const kindFor = (by: string): JobKind<{ n: number }> => ({
      name,
      retryLimit: 0,
      timeoutSeconds: 30,
      run: async (_ctx, { n }) => {
        ranBy.push(by);
        return { n, by };
      },
    });
    const { jobs: caller } = queue();
    const { jobs: worker } = queue();
    await worker.work(kindFor('worker'));
    // The caller never works this kind: only the other instance can answer.
    expect(await caller.call(kindFor('caller'), { n: 5 }, { timeoutMs: 20_000 })).toEqual({ n: 5, by: 'worker' });
    expect(ranBy).toEqual(['worker']);
  });
});
