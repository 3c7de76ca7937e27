import type * as Models from './generated/postgresql/client.ts';

/**
 * The tables of the database with their columns, for the typed SQL of compiled
 * reads (Kysely, src/db/sql.ts). The row types are Prisma's models: generated from
 * prisma/models.prisma like the client, so a renamed column fails to compile.
 * (The columns keep the models' field names; the tables are the models' @@map names.)
 */
export interface Tables {
  organizations: Models.Organization;
  organization_email_domains: Models.OrganizationEmailDomain;
  users: Models.User;
  members: Models.Member;
  teams: Models.Team;
  team_members: Models.TeamMember;
  content_grants: Models.ContentGrant;
  api_tokens: Models.ApiToken;
  collections: Models.Collection;
  spaces: Models.Space;
  custom_fields: Models.CustomField;
  space_custom_field_values: Models.SpaceCustomFieldValue;
  sites: Models.Site;
  site_section_groups: Models.SiteSectionGroup;
  site_sections: Models.SiteSection;
  site_spaces: Models.SiteSpace;
  share_links: Models.ShareLink;
  data_generations: Models.DataGeneration;
  revisions: Models.Revision;
  revision_pages: Models.RevisionPage;
  page_versions: Models.PageVersion;
  documents: Models.Document;
  document_structures: Models.DocumentStructure;
  document_links: Models.DocumentLink;
  revision_files: Models.RevisionFile;
  file_versions: Models.FileVersion;
  change_requests: Models.ChangeRequest;
  change_request_contributors: Models.ChangeRequestContributor;
  change_request_reviews: Models.ChangeRequestReview;
  change_request_reviewers: Models.ChangeRequestReviewer;
  audit_events: Models.AuditEvent;
  comments: Models.Comment;
  comment_replies: Models.CommentReply;
  comment_reactions: Models.CommentReaction;
  invites: Models.Invite;
  saml_providers: Models.SamlProvider;
  translation_settings: Models.TranslationSettings;
  openapi_specs: Models.OpenApiSpec;
  openapi_spec_versions: Models.OpenApiSpecVersion;
  webhook_subscriptions: Models.WebhookSubscription;
  webhook_deliveries: Models.WebhookDelivery;
  webhook_attempts: Models.WebhookAttempt;
}
