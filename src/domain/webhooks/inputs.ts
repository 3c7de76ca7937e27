import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { distinct } from '../../lib/validation.ts';
import { url } from '../shared/schemas.ts';
import { WEBHOOK_EVENTS } from './events.ts';

/** Where deliveries go: http or https (the address is checked again, as the fetcher checks it, at each delivery). */
const webhookUrl = url.refine((value) => /^https?:\/\//i.test(value), 'must be an http or https URL');

const events = distinct(
  z.array(z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(', ')}` })).min(1, 'must name at least one event'),
  'must not name an event twice',
);

export const ListWebhooksQuery = z.object({ ...pageParams });
export const ListWebhookDeliveriesQuery = z.object({ ...pageParams });

export const CreateWebhookInput = z.strictObject({
  url: webhookUrl,
  events,
  active: z.boolean().optional(),
});
export type CreateWebhookInput = z.infer<typeof CreateWebhookInput>;

/** Every field optional; `active: true` enables a disabled subscription again. */
export const UpdateWebhookInput = z.strictObject({
  url: webhookUrl.optional(),
  events: events.optional(),
  active: z.boolean().optional(),
});
export type UpdateWebhookInput = z.infer<typeof UpdateWebhookInput>;
