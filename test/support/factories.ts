import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/index.ts';
import type { Role } from '../../src/domain/access.ts';
import { createOrganization, ensureMembership, ensureUser, issueApiToken } from '../../src/domain/users/provisioning.ts';

/** Test data through the same provisioning functions as the CLI. Every call makes new, unique rows. */

/** A short random suffix for names, emails and domains nobody else in the run uses. */
export const unique = () => randomUUID().slice(0, 8);

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

export async function buildUser(database: Database, name = 'user'): Promise<TestUser> {
  const email = `${name}-${unique()}@example.test`;
  const user = await ensureUser(database.db, email, `${name[0]!.toUpperCase()}${name.slice(1)} ${unique()}`);
  return { id: user.id, email, token: await issueApiToken(database.db, user.id, 'test') };
}

/** A user with a chosen email address (buildUser always uses example.test) and display name. */
export async function buildUserWithEmail(database: Database, email: string, displayName?: string): Promise<TestUser> {
  const user = await ensureUser(database.db, email, displayName);
  return { id: user.id, email: user.email, token: await issueApiToken(database.db, user.id, 'test') };
}

export async function buildOrganization(database: Database, title = 'Test organization') {
  return createOrganization(database.db, { title: `${title} ${unique()}` });
}

export async function addMember(database: Database, organizationId: string, user: TestUser, role: Role | null) {
  await ensureMembership(database.db, organizationId, user.id, role);
  return user;
}

/** An organization with an admin, and members at other roles on demand. */
export async function buildTeam(database: Database) {
  const organization = await buildOrganization(database);
  const admin = await addMember(database, organization.id, await buildUser(database, 'admin'), 'admin');
  const member = async (role: Role | null, name = role ?? 'guest') => addMember(database, organization.id, await buildUser(database, name), role);
  return { organization, admin, member };
}

/**
 * Members of an organization with chosen names and known join dates, for
 * listings sorted or searched by them: `joined(user)` dates a membership one
 * day after the previous one (the first on 2020-01-01); `named(role, displayName)`
 * adds a member named `<displayName> <unique>`, with email
 * `<local>-<unique>@<domain>`, and dates it likewise.
 */
export function memberRoster(database: Database, organizationId: string) {
  let day = 0;
  const joined = async (user: TestUser) => {
    day += 1;
    await database.db.member.update({
      where: { organizationId_userId: { organizationId, userId: user.id } },
      data: { joinedAt: new Date(Date.UTC(2020, 0, day)) },
    });
  };
  const named = async (role: Role | null, displayName: string, local = 'person', domain = 'example.test') => {
    const id = unique();
    const user = await buildUserWithEmail(database, `${local}-${id}@${domain}`, `${displayName} ${id}`);
    const member = await addMember(database, organizationId, user, role);
    await joined(member);
    return member;
  };
  return { joined, named };
}
