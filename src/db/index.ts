export { type Database, type Db, type Provider, type Tx, openDatabase, providerOf } from './client.ts';
export { runMigrations } from './migrate.ts';
export type {
  ApiToken as ApiTokenRecord,
  ChangeRequest as ChangeRequestRecord,
  Revision as RevisionRecord,
  Collection as CollectionRecord,
  CustomField as CustomFieldRecord,
  Member as MemberRecord,
  Organization as OrganizationRecord,
  OrganizationEmailDomain as OrganizationEmailDomainRecord,
  Space as SpaceRecord,
  SpaceCustomFieldValue as SpaceCustomFieldValueRecord,
  Team as TeamRecord,
  TeamMember as TeamMemberRecord,
  User as UserRecord,
} from './generated/postgresql/client.ts';
export { Prisma } from './generated/postgresql/client.ts';
