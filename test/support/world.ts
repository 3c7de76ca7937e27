import { expect } from 'vitest';
import type { Role } from '../../src/domain/access.ts';
import type { TestApp } from './app.ts';
import { type TestUser, addMember, buildTeam, buildUser } from './factories.ts';

/**
 * Organizations filled with content over REST, as a client would fill them:
 * the GraphQL and parity tests read it back, the REST tests of one resource
 * need the others' content around it.
 */

/** An organization with an admin, members at other roles on demand, and REST helpers to fill it. */
export async function buildWorld(t: TestApp) {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const rest = async (method: string, url: string, token: string, body?: unknown, status = 200) => {
    const response = await t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response.statusCode === 204 || response.statusCode === 205 ? undefined : response.json();
  };
  const collection = (body: Record<string, unknown> = {}, organization = organizationId, token = team.admin.token) =>
    rest('POST', `/v1/orgs/${organization}/collections`, token, body, 201);
  const space = (body: Record<string, unknown> = {}, organization = organizationId, token = team.admin.token) =>
    rest('POST', `/v1/orgs/${organization}/spaces`, token, body, 201);
  const customField = (body: Record<string, unknown>, organization = organizationId, token = team.admin.token) =>
    rest('POST', `/v1/orgs/${organization}/custom-fields`, token, body, 201);
  const stranger = () => buildUser(t.database, 'stranger');
  return { ...team, organizationId, rest, collection, space, customField, stranger };
}

/** A second organization administered by `admin` (for transfers). */
export async function otherOrganizationOf(t: TestApp, admin: TestUser, role: Role | null = 'admin') {
  const other = await buildTeam(t.database);
  await addMember(t.database, other.organization.id, admin, role);
  return other;
}

/** A text custom field of the organization, created by `token` over REST, and a way to set its value on a space. */
export async function textCustomField(t: TestApp, organizationId: string, token: string, name: string) {
  const created = await t.call('POST', `/v1/orgs/${organizationId}/custom-fields`, {
    token,
    body: { name, type: 'text' },
  });
  expect(created.statusCode, created.body).toBe(201);
  return {
    id: created.json().id as string,
    set: async (spaceId: string, value: string) => {
      const response = await t.call('PATCH', `/v1/spaces/${spaceId}/custom-fields`, {
        token,
        body: { values: { [name]: { value } } },
      });
      expect(response.statusCode, response.body).toBe(204);
    },
  };
}
