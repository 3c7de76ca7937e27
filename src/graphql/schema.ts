import { builder } from './builder.ts';
import { describeGenerated } from './descriptions.ts';
import { dropAbsentNulls } from './null-inputs.ts';
import './types/common.ts';
import './types/user.ts';
import './types/organization.ts';
import './types/member.ts';
import './types/team.ts';
import './types/invite.ts';
import './types/saml.ts';
import './types/translations.ts';
import './types/collection.ts';
import './types/space.ts';
import './types/permission.ts';
import './types/custom-field.ts';
import './types/content.ts';
import './types/page-options.ts';
import './types/change-request.ts';
import './types/change-request-diff.ts';
import './types/comment.ts';
import './types/comment-reply.ts';
import './types/change-request-review.ts';
import './types/search.ts';
import './types/site.ts';
import './types/share-link.ts';
import './types/site-section.ts';
import './types/site-section-group.ts';
import './types/site-space.ts';
import './types/site-redirect.ts';
import './types/published-site.ts';
import './types/published-url.ts';
import './types/openapi-spec.ts';
import './types/webhook.ts';
import './types/audit.ts';
import './types/git-sync.ts';
import './types/git-binding.ts';
import './types/viewer.ts';
import './types/events.ts';

/**
 * The graph, with the Relay plugin's generated connections, edges, inputs and
 * payloads described (./descriptions.ts), and explicit nulls of nullable
 * arguments and input fields read as absent where null means nothing else
 * (./null-inputs.ts).
 */
export const schema = dropAbsentNulls(describeGenerated(builder.toSchema()));
