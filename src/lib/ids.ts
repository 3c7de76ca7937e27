import { customAlphabet } from 'nanoid';

/**
 * Identifiers are opaque strings that carry their kind as a prefix ("spc_…"), so
 * that one id works in both contracts: REST paths take it as is, and GraphQL's
 * `node(id:)` knows which type to load without a second lookup.
 */
export const ID_PREFIXES = {
  organization: 'org',
  user: 'usr',
  apiToken: 'tok',
  collection: 'col',
  space: 'spc',
  revision: 'rev',
  customField: 'cf',
  team: 'team',
  comment: 'cmt',
  commentReply: 'rpl',
  invite: 'inv',
  samlProvider: 'saml',
  translationSettings: 'trs',
  openApiSpec: 'oas',
  openApiSpecVersion: 'oasv',
  site: 'site',
  siteSectionGroup: 'ssg',
  siteSection: 'sec',
  siteSpace: 'ssp',
  shareLink: 'shl',
  siteRedirect: 'srd',
  changeRequest: 'cr',
  changeRequestReview: 'crv',
  page: 'pg',
  pageVersion: 'pv',
  file: 'fil',
  fileVersion: 'fv',
  event: 'evt',
  webhook: 'wh',
  webhookDelivery: 'whd',
  webhookAttempt: 'wha',
  webhookMessage: 'msg',
  gitBinding: 'gitb',
  grant: 'grt',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const randomPart = customAlphabet('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 18);
const kindByPrefix = new Map<string, IdKind>(Object.entries(ID_PREFIXES).map(([kind, prefix]) => [prefix, kind as IdKind]));

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomPart()}`;
}

/** The kind of an id made by `newId`, or undefined for anything else. */
export function idKind(id: string): IdKind | undefined {
  const separator = id.indexOf('_');
  return separator > 0 ? kindByPrefix.get(id.slice(0, separator)) : undefined;
}
