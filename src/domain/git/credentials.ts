import type { RequestContext } from '../../context.ts';
import type { SpaceGitBindingRecord } from '../../db/index.ts';
import { invalid } from '../../errors.ts';
import { open } from '../../lib/secret-box.ts';

/** A bound repository's credentials, opened with the server's key (GIT_CREDENTIALS_KEY) for a sync only. */

/** A binding's credentials in clear, for the sync only; null without any. */
export function credentialsOf(ctx: RequestContext, binding: Pick<SpaceGitBindingRecord, 'credentials'>): { username: string; password: string } | null {
  if (!binding.credentials) return null;
  const plain = ctx.gitSync?.credentialsKey ? open(ctx.gitSync.credentialsKey, binding.credentials) : null;
  if (plain === null) throw invalid("credentials: they cannot be read with this server's GIT_CREDENTIALS_KEY (was the key changed?): give them again");
  return JSON.parse(plain) as { username: string; password: string };
}

/** The binding's URL with its credentials, for the engine (src/domain/git/engine.ts parses them out again). */
export function authenticatedUrl(ctx: RequestContext, binding: Pick<SpaceGitBindingRecord, 'url' | 'credentials'>): string {
  const credentials = credentialsOf(ctx, binding);
  if (!credentials) return binding.url;
  const url = new URL(binding.url);
  url.username = encodeURIComponent(credentials.username);
  url.password = encodeURIComponent(credentials.password);
  return url.href;
}
