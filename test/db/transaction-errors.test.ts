import { beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.ts';
import { Prisma } from '../../src/db/index.ts';
import { inTransaction, translateConstraintError } from '../../src/domain/transaction.ts';
import { DomainError } from '../../src/errors.ts';
import type { DomainEvent } from '../../src/events/event.ts';
import { TEST_URLS, type TestApp, createTestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';

const prismaError = (code: string) => new Prisma.PrismaClientKnownRequestError('failed', { code, clientVersion: Prisma.prismaVersion.client });

/** What a failed transaction becomes for the client: the statuses of the Prisma errors a write can meet. */
describe('a transaction that fails in the database', () => {
  it('is a 503 to try again after a deadlock or a write conflict (P2034), a 409 after a lost race (P2025), and anything else as it is', () => {
    const deadlock = translateConstraintError(prismaError('P2034'));
    expect(deadlock).toBeInstanceOf(DomainError);
    expect(deadlock).toMatchObject({ status: 503, message: expect.stringMatching(/try again/) });
    expect(translateConstraintError(prismaError('P2025'))).toMatchObject({ status: 409 });
    const other = prismaError('P2011');
    expect(translateConstraintError(other)).toBe(other);
  });
});

/** A deadlock victim runs again from its start (PostgreSQL's cure), on the real database, its events announced once. */
describe('a transaction chosen as a deadlock victim', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });

  async function runFailing(failures: number) {
    const { organization } = await buildTeam(t.database);
    const published: DomainEvent[] = [];
    const ctx = {
      ...createContext({ database: t.database, viewer: null, clock: t.clock, urls: TEST_URLS }),
      events: { publish: (event: DomainEvent) => published.push(event) },
    };
    let attempts = 0;
    const outcome = inTransaction(
      ctx as never,
      { action: 'organization.update', organizationId: organization.id, target: { type: 'organization', id: organization.id } },
      async (tx) => {
        attempts++;
        await tx.db.organization.update({ where: { id: organization.id }, data: { title: `Renamed ${attempts}` } });
        tx.pendingEvents?.push({ kind: 'organization.renamed', attempt: attempts } as unknown as DomainEvent);
        if (attempts <= failures) throw prismaError('P2034');
        return attempts;
      },
    );
    return { organization, published, outcome, attempts: () => attempts };
  }

  it('runs again, keeping only the last run and announcing its events once', async () => {
    const { organization, published, outcome } = await runFailing(2);
    await expect(outcome).resolves.toBe(3);
    expect((await t.database.db.organization.findUniqueOrThrow({ where: { id: organization.id } })).title).toBe('Renamed 3');
    expect(published).toEqual([{ kind: 'organization.renamed', attempt: 3 }]);
  });

  it('gives up after three runs with a 503, writing and announcing nothing', async () => {
    const { organization, published, outcome, attempts } = await runFailing(3);
    await expect(outcome).rejects.toMatchObject({ status: 503 });
    expect(attempts()).toBe(3);
    expect((await t.database.db.organization.findUniqueOrThrow({ where: { id: organization.id } })).title).toBe(organization.title);
    expect(published).toEqual([]);
  });
});
