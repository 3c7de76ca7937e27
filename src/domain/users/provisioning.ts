import { randomBytes } from 'node:crypto';
import type { Database, Db } from '../../db/index.ts';
import { invalid } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { userSearchText } from '../../lib/search.ts';
import { generateApiToken, hashApiToken } from '../../lib/tokens.ts';
import { parseInput } from '../../lib/validation.ts';
import { z } from 'zod';
import { ROLES } from '../access.ts';
import { serializeOn } from '../transaction.ts';

/**
 * Users, memberships and API tokens are provisioned by the command line (there
 * is no sign-up over the API). Every function here is idempotent except token
 * issuance: a token is shown once and only its hash is stored.
 */

/** Provisioning may wait for another process holding the write lock. */
const PROVISIONING_TRANSACTION = { maxWait: 10_000, timeout: 20_000 };

const email = z
  .email({ error: 'must be an email address' })
  .max(254)
  .transform((value) => value.toLowerCase());
const organizationTitle = z
  .string()
  .min(2)
  .max(255)
  .regex(/^\S.*\S$/s, 'must not start or end with whitespace');

export async function ensureUser(db: Db, rawEmail: string, displayName?: string) {
  const address = parseInput(email, rawEmail, 'email');
  const name = displayName ?? address.split('@')[0]!;
  return db.user.upsert({
    where: { email: address },
    create: { id: newId('user'), email: address, displayName: name, searchText: userSearchText({ displayName: name, email: address }) },
    update: {},
  });
}

export async function issueApiToken(db: Db, userId: string, label: string): Promise<string> {
  const token = generateApiToken();
  await db.apiToken.create({ data: { id: newId('apiToken'), userId, tokenHash: hashApiToken(token), label } });
  return token;
}

/** The key an organization signs its visitors' claims with: 256 random bits (also made by the demo's bulk load). */
export const newVisitorClaimsSecret = () => randomBytes(32).toString('base64url');

export async function createOrganization(db: Db, input: { title: string; hostname?: string; emailDomains?: string[] }) {
  const title = parseInput(organizationTitle, input.title, 'org');
  return db.organization.create({
    data: {
      id: newId('organization'),
      title,
      hostname: input.hostname ?? null,
      mergeRules: { type: 'none' },
      visitorClaimsSecret: newVisitorClaimsSecret(),
      emailDomains: { create: (input.emailDomains ?? []).map((domain) => ({ domain })) },
    },
  });
}

/** Makes the user a member with this role (null: guest), keeping the join date of an existing membership. */
export async function ensureMembership(db: Db, organizationId: string, userId: string, memberRole: string | null) {
  return db.member.upsert({
    where: { organizationId_userId: { organizationId, userId } },
    create: { organizationId, userId, role: memberRole },
    update: { role: memberRole },
  });
}

/**
 * `docs-gateway bootstrap`: the organization with this title (created if none),
 * a user with this email who is one of its admins, and a new token for that user.
 */
export async function bootstrap({ db, provider }: Pick<Database, 'db' | 'provider'>, input: { org: string; email: string }) {
  const title = parseInput(organizationTitle, input.org, 'org');
  return db.$transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    // Concurrent bootstraps of one organization must not create it (or its admin) twice.
    await serializeOn(txDb, provider, `bootstrap:${title}`);
    const user = await ensureUser(txDb, input.email);
    const organization =
      (await txDb.organization.findFirst({ where: { title }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })) ?? (await createOrganization(txDb, { title }));
    await ensureMembership(txDb, organization.id, user.id, 'admin');
    const token = await issueApiToken(txDb, user.id, 'bootstrap');
    return { organizationId: organization.id, userId: user.id, token };
  }, PROVISIONING_TRANSACTION);
}

const ROLES_AND_GUEST = [...ROLES, 'guest'] as const;
const memberRoleOrGuest = z.enum(ROLES_AND_GUEST, { error: `must be one of ${ROLES_AND_GUEST.join(', ')}` });

/** `docs-gateway users create`: a user (reused if the email exists) with a role in an organization, and a token. */
export async function createUserWithToken({ db, provider }: Pick<Database, 'db' | 'provider'>, input: { email: string; org: string; role: string }) {
  const memberRole = parseInput(memberRoleOrGuest, input.role, 'role');
  return db.$transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    await serializeOn(txDb, provider, `user:${input.email.toLowerCase()}`);
    const user = await ensureUser(txDb, input.email);
    const organization = await txDb.organization.findUnique({ where: { id: input.org } });
    if (!organization) throw invalid(`org: organization "${input.org}" does not exist`);
    await ensureMembership(txDb, organization.id, user.id, memberRole === 'guest' ? null : memberRole);
    const token = await issueApiToken(txDb, user.id, 'cli');
    return { userId: user.id, token };
  }, PROVISIONING_TRANSACTION);
}
