import type { PublicUrls } from '../../config.ts';
import type { ChangeRequestRecord, UserRecord } from '../../db/index.ts';
import type { Api, Wire } from '../shared/api-types.ts';
import { presentUser } from '../users/presenter.ts';

export type ChangeRequestJSON = Wire<Api.ChangeRequest>;

export function changeRequestUrls(changeRequest: ChangeRequestRecord, urls: PublicUrls) {
  return {
    app: `${urls.app}/s/${changeRequest.spaceId}/~/changes/${changeRequest.number}`,
    location: `${urls.api}/v1/spaces/${changeRequest.spaceId}/change-requests/${changeRequest.id}`,
  };
}

/** A user who is gone still shows as the author of what they wrote. */
export function presentAuthor(user: UserRecord | null, id: string | null, urls: PublicUrls) {
  if (user) return presentUser(user, urls);
  return { object: 'user' as const, id: id ?? 'unknown', displayName: 'Deleted user', urls: { location: `${urls.api}/v1/users/${id ?? 'unknown'}` } };
}

export interface ChangeRequestFacts {
  createdBy: UserRecord | null;
  mergedBy: UserRecord | null;
  /** The space's active revision: a change request is outdated when it was last merged with another one. */
  spaceRevisionId: string;
  /** Open comments in the change request. */
  openComments: number;
}

export function presentChangeRequest(changeRequest: ChangeRequestRecord, facts: ChangeRequestFacts, urls: PublicUrls): ChangeRequestJSON {
  return {
    object: 'change-request',
    id: changeRequest.id,
    number: changeRequest.number,
    status: changeRequest.status as ChangeRequestJSON['status'],
    subject: changeRequest.subject,
    createdBy: presentAuthor(facts.createdBy, changeRequest.createdById, urls),
    createdAt: changeRequest.createdAt.toISOString(),
    updatedAt: changeRequest.updatedAt.toISOString(),
    ...(changeRequest.mergedAt
      ? { mergedAt: changeRequest.mergedAt.toISOString(), mergedBy: presentAuthor(facts.mergedBy, changeRequest.mergedById, urls) }
      : {}),
    space: changeRequest.spaceId,
    revision: changeRequest.revisionId,
    revisionInitial: changeRequest.revisionInitialId,
    revisionMergedAncestor: changeRequest.revisionMergedAncestorId,
    ...(changeRequest.revisionMergedId ? { revisionMerged: changeRequest.revisionMergedId } : {}),
    comments: facts.openComments,
    outdated: isOutdated(changeRequest, facts.spaceRevisionId),
    urls: changeRequestUrls(changeRequest, urls),
  };
}

export function isOutdated(changeRequest: ChangeRequestRecord, spaceRevisionId: string): boolean {
  return changeRequest.status !== 'merged' && changeRequest.revisionMergedAncestorId !== spaceRevisionId;
}
