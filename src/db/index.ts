export { type Database, type Db, type Provider, type Tx, openDatabase, providerOf } from './client.ts';
export { runMigrations } from './migrate.ts';
export type {
  ApiToken as ApiTokenRecord,
  ChangeRequest as ChangeRequestRecord,
  Revision as RevisionRecord,
  Collection as CollectionRecord,
  Comment as CommentRecord,
  CommentReaction as CommentReactionRecord,
  CommentReply as CommentReplyRecord,
  CustomField as CustomFieldRecord,
  Member as MemberRecord,
  Organization as OrganizationRecord,
  OrganizationEmailDomain as OrganizationEmailDomainRecord,
  Space as SpaceRecord,
  SpaceCustomFieldValue as SpaceCustomFieldValueRecord,
  Team as TeamRecord,
  SamlProvider as SamlProviderRecord,
  Invite as InviteRecord,
  TeamMember as TeamMemberRecord,
  TranslationSettings as TranslationSettingsRecord,
  User as UserRecord,
  OpenApiSpec as OpenApiSpecRecord,
  OpenApiSpecVersion as OpenApiSpecVersionRecord,
} from './generated/postgresql/client.ts';
export { Prisma } from './generated/postgresql/client.ts';
