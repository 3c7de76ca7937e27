import { addMember, buildTeam, buildUser, unique } from '../support/factories.ts';
import type { FuzzTarget } from './harness.ts';
import type { OpenApiDocument } from './openapi-document.ts';

/**
 * What the fuzzed requests point at: an organization administered by the
 * caller, filled over REST with one or more of everything (collections,
 * spaces with pages and files, change requests, custom fields, sites with
 * sections, groups, site spaces and share links), a second organization it
 * administers (for transfers), a foreign organization it is not a member of,
 * and a real page token of every listing that has a second page.
 */

export type Kind =
  | 'organization'
  | 'user'
  | 'collection'
  | 'space'
  | 'changeRequest'
  | 'page'
  | 'pagePath'
  | 'file'
  | 'revision'
  | 'customField'
  | 'site'
  | 'siteSection'
  | 'siteSectionGroup'
  | 'siteSpace'
  | 'shareLink'
  | 'team'
  | 'emailDomain';

export interface Fixtures {
  /** The caller: admin of `own.organization[0]` and `own.organization[1]`. */
  token: string;
  own: Partial<Record<Kind, string[]>>;
  foreign: Partial<Record<Kind, string[]>>;
  /** Real `next.page` tokens by operationId. */
  pageTokens: Record<string, string[]>;
  /** The organizations and users of every build so far: where a refused request must not have written (FuzzTarget.fingerprint). */
  scopes: string[];
}

// A 2×3 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR42mP8z8DwnwEIGBkZAB8bAv8HDz0lAAAAAElFTkSuQmCC';

type Ids = Partial<Record<Kind, string[]>>;
const add = (ids: Ids, kind: Kind, ...values: Array<string | undefined>) => {
  for (const value of values) if (value) (ids[kind] ??= []).push(value);
};

/** Fills an organization as `token` (its admin) and returns the ids of what it made. */
async function fill(target: FuzzTarget, token: string, organizationId: string, full: boolean): Promise<Ids> {
  const ids: Ids = { organization: [organizationId] };
  const rest = async (method: string, url: string, body?: unknown, expected = [200, 201, 204, 205]) => {
    const response = await target.json(method, url, token, body);
    if (!expected.includes(response.status))
      throw new Error(`fixtures: ${method} ${url} ${JSON.stringify(body)} answered ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const org = `/v1/orgs/${organizationId}`;
  const domain = `fz-${unique()}.test`;
  await rest('PATCH', org, { emailDomains: [domain] });
  add(ids, 'emailDomain', domain);

  const parent = await rest('POST', `${org}/collections`, { title: 'Parent' });
  const child = await rest('POST', `${org}/collections`, { title: 'Child', parent: parent.id });
  add(ids, 'collection', parent.id, child.id);

  const docs = await rest('POST', `${org}/spaces`, { title: 'Docs', parent: parent.id, emoji: '📘' });
  const guide = await rest('POST', `${org}/spaces`, { title: 'Guide', parent: parent.id });
  add(ids, 'space', docs.id, guide.id);
  if (full) add(ids, 'space', (await rest('POST', `${org}/spaces`, { title: 'Top' })).id);

  // Content: a merged change request (pages and files in the space) and two open ones.
  const changeRequests = `/v1/spaces/${docs.id}/change-requests`;
  const merged = await rest('POST', changeRequests, { subject: 'Start' });
  await rest('POST', `${changeRequests}/${merged.id}/content`, {
    changes: [
      {
        operation: 'insert_page',
        ref: 'q',
        title: 'Quickstart',
        document: { markdown: '# Quickstart\n\nRun it. See [the guide](./g) and ![a diagram](./diagram) and [out](https://example.invalid/).\n' },
      },
      { operation: 'insert_page', ref: 'g', title: 'Guide', document: { markdown: 'Install, then [start](./q).\n' } },
      {
        operation: 'insert_files',
        files: [
          { ref: 'diagram', name: 'diagram.png', contentType: 'image/png', base64: PNG },
          { ref: 'notes', name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('hello').toString('base64') },
        ],
      },
    ],
  });
  await rest('POST', `${changeRequests}/${merged.id}/merge`);
  const open = await rest('POST', changeRequests, { subject: 'More' });
  await rest('POST', `${changeRequests}/${open.id}/content`, {
    changes: [{ operation: 'insert_page', title: 'Reference', document: { markdown: 'The [quickstart](./quickstart).\n' } }],
  });
  const second = await rest('POST', changeRequests, { subject: 'Draft' });
  add(ids, 'changeRequest', open.id, second.id, merged.id);

  const content = await rest('GET', `/v1/spaces/${docs.id}/content`);
  add(ids, 'revision', content.id);
  const walk = (pages: Array<{ id: string; path?: string; pages?: unknown[] }>) => {
    for (const page of pages) {
      add(ids, 'page', page.id);
      add(ids, 'pagePath', page.path);
      walk((page.pages ?? []) as typeof pages);
    }
  };
  walk(content.pages ?? []);
  const files = await rest('GET', `/v1/spaces/${docs.id}/content/files`);
  add(ids, 'file', ...files.items.map((file: { id: string }) => file.id));

  await rest('POST', `${org}/custom-fields`, { name: 'fz_text', type: 'text' });
  await rest('POST', `${org}/custom-fields`, { name: 'fz_select', type: 'select', options: ['a', 'b'] });
  await rest('POST', `${org}/custom-fields`, { name: 'fz_number', type: 'number' });
  await rest('POST', `${org}/custom-fields`, { name: 'fz_multi', type: 'multi-select', options: ['a', 'b', 'c'] });
  await rest('POST', `${org}/custom-fields`, { name: 'fz_bool', type: 'boolean' });
  add(ids, 'customField', 'fz_text', 'fz_select', 'fz_number', 'fz_multi', 'fz_bool');
  await rest('PATCH', `/v1/spaces/${docs.id}/custom-fields`, { values: { fz_text: { value: 'hello' } } });

  const site = await rest('POST', `${org}/sites`, { title: 'Site one' });
  add(ids, 'site', site.id);
  const sites = `${org}/sites/${site.id}`;
  const first = await rest('POST', `${sites}/sections`, { spaceId: docs.id, title: 'Docs' });
  const other = await rest('POST', `${sites}/sections`, { spaceId: guide.id, title: 'Guides' });
  add(ids, 'siteSection', first.id, other.id);
  const group = await rest('POST', `${sites}/section-groups`, { title: 'Group', sections: [other.id] });
  add(ids, 'siteSectionGroup', group.id);
  if (full) {
    add(ids, 'siteSectionGroup', (await rest('POST', `${sites}/section-groups`, { title: 'Empty' })).id);
    const variant = await rest('POST', `${sites}/site-spaces`, { spaceId: guide.id, sectionId: first.id });
    add(ids, 'siteSpace', variant.id);
  }
  const siteSpaces = await rest('GET', `${sites}/site-spaces`);
  add(ids, 'siteSpace', ...siteSpaces.items.map((item: { id: string }) => item.id));
  add(ids, 'shareLink', (await rest('POST', `${sites}/share-links`, { name: 'Reviewers' })).id);
  if (full) {
    add(ids, 'shareLink', (await rest('POST', `${sites}/share-links`, { name: 'Partners' })).id);
    add(ids, 'site', (await rest('POST', `${org}/sites`, { title: 'Site two' })).id);
  }
  return ids;
}

/**
 * Builds the fixtures; `document` is the OpenAPI document, whose listings give
 * the page tokens. With `previous`, only the caller's organizations are made
 * again (what fuzzed requests change): the foreign organization, which the
 * caller cannot change, and the page tokens (sort values, as valid in a new
 * organization's listing as in the old one's) are kept.
 */
export async function buildFixtures(target: FuzzTarget, document: OpenApiDocument, previous?: Fixtures): Promise<Fixtures> {
  const team = await buildTeam(target.database);
  const member = await team.member('edit');
  const own = await fill(target, team.admin.token, team.organization.id, true);
  add(own, 'user', team.admin.id, member.id);
  // Teams, where the API has them.
  if (document.paths['/v1/orgs/{organizationId}/teams']?.put) {
    for (const body of [{ title: 'Writers', members: [member.id] }, { title: 'Reviewers' }]) {
      const created = await target.json('PUT', `/v1/orgs/${team.organization.id}/teams`, team.admin.token, body);
      if (created.status < 300 && typeof created.body?.id === 'string') add(own, 'team', created.body.id);
    }
  }
  // A second organization the caller administers: where transfers go.
  const second = await buildTeam(target.database);
  await addMember(target.database, second.organization.id, team.admin, 'admin');
  add(own, 'organization', second.organization.id);
  const scopes = [...(own.organization ?? []), ...(own.user ?? [])];
  if (previous) return { ...previous, token: team.admin.token, own, scopes: [...previous.scopes, ...scopes] };

  // An organization the caller is not a member of.
  const stranger = await buildTeam(target.database);
  const foreign = await fill(target, stranger.admin.token, stranger.organization.id, false);
  add(foreign, 'user', stranger.admin.id, (await buildUser(target.database, 'loner')).id);

  const fixtures: Fixtures = {
    token: team.admin.token,
    own,
    foreign,
    pageTokens: {},
    scopes: [...scopes, ...(foreign.organization ?? []), ...(foreign.user ?? [])],
  };
  // A page token of every listing that has a second page, as its first page of one item gives it.
  for (const [path, operations] of Object.entries(document.paths)) {
    const operation = operations.get;
    if (!operation?.parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'limit')) continue;
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(own[PARAMETER_KINDS[name] ?? 'space']?.[0] ?? 'x'));
    const query = operation.parameters.some((parameter) => parameter.name === 'query') ? '&query=the' : '';
    const response = await target.json('GET', `${url}?limit=1${query}`, fixtures.token);
    const page = response.body?.next?.page;
    if (typeof page === 'string') fixtures.pageTokens[operation.operationId] = [page];
  }
  return fixtures;
}

/** The kind of id each path parameter of /v1 takes. */
export const PARAMETER_KINDS: Record<string, Kind> = {
  organizationId: 'organization',
  userId: 'user',
  collectionId: 'collection',
  spaceId: 'space',
  changeRequestId: 'changeRequest',
  pageId: 'page',
  pagePath: 'pagePath',
  fileId: 'file',
  fieldName: 'customField',
  siteId: 'site',
  siteSectionId: 'siteSection',
  siteSectionGroupId: 'siteSectionGroup',
  siteSpaceId: 'siteSpace',
  shareLinkId: 'shareLink',
  teamId: 'team',
  emailDomain: 'emailDomain',
};
