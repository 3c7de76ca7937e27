import type { RequestContext } from '../../context.ts';
import type { ChangeRequestRecord, SpaceRecord } from '../../db/index.ts';
import { conflict } from '../../errors.ts';
import type { z } from 'zod';
import type { mergeRule, standaloneMergeRules } from '../shared/schemas.ts';

/**
 * A space's merge rules (the official MergeRulesSpaceConfiguration): `inherit`
 * follows its organization's, `none` merges without review, `rules` must all
 * pass. They are checked inside the merge's transaction, under the space's
 * content lock, so a review withdrawn meanwhile cannot slip through; a merge
 * they refuse changes nothing and names the first rule that failed.
 */

type MergeRule = z.infer<typeof mergeRule>;
type StandaloneRules = z.infer<typeof standaloneMergeRules>;

/** The reviews that count: each reviewer's latest (older ones are outdated). */
export interface CurrentReview {
  reviewerId: string;
  status: string;
}

export interface MergeFacts {
  changeRequest: Pick<ChangeRequestRecord, 'number' | 'subject' | 'createdById' | 'revisionMergedAncestorId'>;
  spaceRevisionId: string;
  reviews: CurrentReview[];
  actorId: string;
}

/** The rules that apply to a space: its own, or its organization's when it inherits them. */
export function effectiveMergeRules(space: Pick<SpaceRecord, 'mergeRules'>, organizationRules: unknown): StandaloneRules {
  const own = space.mergeRules as { type?: string } | null;
  const rules = (own?.type === 'inherit' || !own ? organizationRules : own) as StandaloneRules | null;
  return rules?.type === 'rules' ? rules : { type: 'none' };
}

/** Why one rule fails for these facts, or null when it passes. */
function ruleProblem(rule: MergeRule, facts: MergeFacts): string | null {
  const approvals = facts.reviews.filter((review) => review.status === 'approved');
  const number = `change request #${facts.changeRequest.number}`;
  switch (rule.rule) {
    case 'require_at_least_one_review':
      return facts.reviews.length > 0 ? null : `${number} needs at least one review`;
    case 'require_at_least_one_approved_review':
      return approvals.length > 0 ? null : `${number} needs at least one approved review`;
    case 'require_all_reviews_approved': {
      if (approvals.length === 0) return `${number} needs approved reviews`;
      const requested = facts.reviews.filter((review) => review.status !== 'approved');
      return requested.length === 0 ? null : `${number} has reviews requesting changes (${requested.map((review) => review.reviewerId).join(', ')})`;
    }
    case 'require_specific_reviewers': {
      const missing = rule.users.filter((user) => !approvals.some((review) => review.reviewerId === user));
      return missing.length === 0 ? null : `${number} needs the approval of ${missing.join(', ')}`;
    }
    case 'require_one_of_specific_reviewers':
      return rule.users.length === 0 || approvals.some((review) => rule.users.includes(review.reviewerId))
        ? null
        : `${number} needs the approval of one of ${rule.users.join(', ')}`;
    case 'require_up_to_date_change_request':
      return facts.changeRequest.revisionMergedAncestorId === facts.spaceRevisionId ? null : `${number} is outdated: update it from the space first`;
    case 'require_change_request_subject':
      return facts.changeRequest.subject.trim() ? null : `${number} needs a subject`;
    case 'require_change_request_description':
      return `${number} needs a description, which change requests here do not have`;
    case 'require_author_to_merge':
      return facts.changeRequest.createdById === facts.actorId ? null : `only the author of ${number} may merge it`;
    case 'require_agent_review':
      return `${number} needs an agent review, which docs-gateway does not make`;
    case 'custom':
      return rule.message ?? 'a custom merge rule, which docs-gateway does not evaluate, must pass';
    case 'allow_bypass':
      return null;
  }
}

/**
 * Throws a 409 naming the first rule that fails (and why), unless every rule
 * passes or the actor is one of an `allow_bypass` rule's users.
 */
export function assertMergeRules(rules: StandaloneRules, facts: MergeFacts): void {
  if (rules.type !== 'rules') return;
  if (rules.rules.some((rule) => rule.rule === 'allow_bypass' && rule.users.includes(facts.actorId))) return;
  for (const rule of rules.rules) {
    const problem = ruleProblem(rule, facts);
    if (problem) throw conflict(`merge rule ${rule.rule}: ${problem}`);
  }
}

/** The latest review of each reviewer of a change request (the ones merge rules count). */
export async function currentReviews(tx: RequestContext, changeRequestId: string): Promise<CurrentReview[]> {
  return tx.db.changeRequestReview.findMany({
    where: { changeRequestId, outdated: false },
    select: { reviewerId: true, status: true },
  });
}
