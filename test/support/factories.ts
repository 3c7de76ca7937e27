import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/index.ts';
import type { Role } from '../../src/domain/access.ts';
import {
  createOrganization,
  ensureMembership,
  ensureUser,
  issueApiToken,
} from '../../src/domain/users/provisioning.ts';

/** Test data through the same provisioning functions as the CLI. Every call makes new, unique rows. */

const unique = () => randomUUID().slice(0, 8);

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
  const member = async (role: Role | null, name = role ?? 'guest') =>
    addMember(database, organization.id, await buildUser(database, name), role);
  return { organization, admin, member };
}
