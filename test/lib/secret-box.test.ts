import { describe, expect, it } from 'vitest';
import { open, seal } from '../../src/lib/secret-box.ts';

/** Secrets at rest (src/lib/secret-box.ts): AES-256-GCM, a fresh IV each time, refused when changed or under another key. */
describe('secret box', () => {
  const key = Buffer.alloc(32, 3);

  it('opens what it sealed, never showing the plain text, and seals the same text differently each time', () => {
    const sealed = seal(key, '{"password":"hunter2-token"}');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('hunter2');
    expect(open(key, sealed)).toBe('{"password":"hunter2-token"}');
    expect(seal(key, 'same')).not.toBe(seal(key, 'same'));
  });

  it('refuses a value changed, cut, or sealed with another key', () => {
    const sealed = seal(key, 'secret');
    const [version, iv, tag, body] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(open(key, [version, iv, tag, flipped.toString('base64url')].join('.'))).toBeNull();
    expect(open(key, [version, iv, tag].join('.'))).toBeNull();
    expect(open(Buffer.alloc(32, 4), sealed)).toBeNull();
    expect(open(key, 'not sealed')).toBeNull();
  });
});
