import { z } from 'zod';

/** Body of `POST …/content/import` (src/domain/content/import.ts does the work, loaded on first use). */
export const ImportInput = z.strictObject({
  url: z.url({ error: 'must be an absolute http(s) URL' }).max(2048),
  source: z.enum(['website'], { error: 'must be website' }),
});
