import { hashApiToken } from '../../src/lib/tokens.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam } from '../support/factories.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const ORG = '/v1/orgs/{organizationId}';

describe('audit log', () => {
  it('records a write with who, what and from where; a failed write records nothing; admins only; filters and pages', async () => {
    const { organization, admin, member } = await buildTeam(t.database);
    const created = await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title: 'Audited' } });
    expect(created.statusCode).toBe(201);
    const space = created.json();
    const refused = await t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { title: '' } });
    expect(refused.statusCode).toBe(400);
    await t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { title: 'Audited 2' } });

    const listed = await t.call('GET', `/v1/orgs/${organization.id}/audit-events`, { token: admin.token });
    expect(listed.statusCode, listed.body).toBe(200);
    expectMatchesSchema('GET', `${ORG}/audit-events`, 200, listed.json());
    expect(listed.json().items.map((item: { action: string }) => item.action)).toEqual(['space.update', 'space.create']);
    expect(listed.json().items[1]).toMatchObject({
      object: 'audit-event',
      actor: { type: 'user', id: admin.id },
      source: 'api',
      target: { type: 'space', id: space.id },
    });
    const rows = await t.database.db.auditEvent.findMany({ where: { organizationId: organization.id } });
    expect(rows).toHaveLength(2);
    const adminToken = await t.database.db.apiToken.findUniqueOrThrow({ where: { tokenHash: hashApiToken(admin.token) } });
    expect(rows.map((row) => row.tokenId)).toEqual([adminToken.id, adminToken.id]);

    const one = await t.call('GET', `/v1/orgs/${organization.id}/audit-events/${listed.json().items[1].id}`, { token: admin.token });
    expectMatchesSchema('GET', `${ORG}/audit-events/{auditEventId}`, 200, one.json());
    expect(one.json().payload).toMatchObject({ token: expect.stringMatching(/^tok_/), address: expect.any(String) });

    const filtered = await t.call('GET', `/v1/orgs/${organization.id}/audit-events?action=space.create&limit=1`, { token: admin.token });
    expect(filtered.json().items.map((item: { action: string }) => item.action)).toEqual(['space.create']);
    const paged = await t.call('GET', `/v1/orgs/${organization.id}/audit-events?limit=1`, { token: admin.token });
    expect(paged.json().next.page).toEqual(expect.any(String));
    const second = await t.call('GET', `/v1/orgs/${organization.id}/audit-events?limit=1&page=${paged.json().next.page}`, { token: admin.token });
    expect(second.json().items[0].action).toBe('space.create');

    const editor = await member('edit');
    expect((await t.call('GET', `/v1/orgs/${organization.id}/audit-events`, { token: editor.token })).statusCode).toBe(403);

    const client = official(admin);
    const { data: actions } = await client.orgs.listOrganizationAuditEventActions(organization.id);
    expectMatchesSchema('GET', `${ORG}/audit-event-actions`, 200, actions);
    expect(actions.items.map((item) => item.id)).toContain('change_request.merge');
    const { data: events } = await client.orgs.listOrganizationAuditEvents(organization.id, { actor: admin.id });
    expect(events.items).toHaveLength(2);
    await expectOfficialError(official(editor).orgs.listOrganizationAuditEvents(organization.id), 403);
  });
});
