import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { roleOrNull, url } from '../shared/schemas.ts';

export const SAML_LABEL_MAX = 30;

const PEM_CERTIFICATE = /^-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----$/;

/** An X.509 certificate in PEM form, as the identity provider gives it (surrounding blank space is trimmed). */
export const certificate = z
  .string()
  .max(10000)
  .transform((value) => value.trim())
  .refine((value) => {
    if (!PEM_CERTIFICATE.test(value)) return false;
    try {
      new X509Certificate(value);
      return true;
    } catch {
      return false;
    }
  }, 'must be an X.509 certificate in PEM form (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)');

const fields = {
  label: z.string().trim().min(1).max(SAML_LABEL_MAX),
  /** Where the identity provider starts a sign-in: browsers are sent there, so http(s) only. */
  ssoURL: url.refine((value) => /^https?:\/\//i.test(value), 'must be an http or https URL'),
  entityID: z.string().trim().min(1).max(1024),
  certificate,
  /** A team of the same organization. */
  defaultTeam: z.string().min(1).max(100),
  /** Role of members who first sign in through the provider; null: guest. */
  defaultRole: roleOrNull,
};

export const ListSamlProvidersQuery = z.object({ ...pageParams });

export const CreateSamlProviderInput = z.strictObject({
  label: fields.label,
  ssoURL: fields.ssoURL.optional(),
  entityID: fields.entityID.optional(),
  certificate: fields.certificate.optional(),
  defaultTeam: fields.defaultTeam.nullable().optional(),
  defaultRole: fields.defaultRole.optional(),
});
export type CreateSamlProviderInput = z.infer<typeof CreateSamlProviderInput>;

/** Every field optional; `defaultTeam: null` clears the team. */
export const UpdateSamlProviderInput = z.strictObject({
  label: fields.label.optional(),
  ssoURL: fields.ssoURL.optional(),
  entityID: fields.entityID.optional(),
  certificate: fields.certificate.optional(),
  defaultTeam: fields.defaultTeam.nullable().optional(),
  defaultRole: fields.defaultRole.optional(),
});
export type UpdateSamlProviderInput = z.infer<typeof UpdateSamlProviderInput>;
