import { describe, expect, it } from 'vitest';
import { bearerToken, generateApiToken, hashApiToken, sameSecret } from '../../src/lib/tokens.ts';

describe('secrets', () => {
  it('compares secrets of any lengths without failing on a length difference', () => {
    const key = generateApiToken();
    expect(sameSecret(key, key)).toBe(true);
    expect(sameSecret(key, `${key}x`)).toBe(false);
    expect(sameSecret(key, key.slice(0, -1))).toBe(false);
    expect(sameSecret(key, '')).toBe(false);
  });

  it('stores API tokens as SHA-256 digests and reads them from Bearer headers only', () => {
    const token = generateApiToken();
    expect(token).toMatch(/^dgw_[\w-]{43}$/);
    expect(hashApiToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiToken(token)).not.toContain(token.slice(4));
    expect(bearerToken(`Bearer ${token}`)).toBe(token);
    expect(bearerToken(`Basic ${token}`)).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
