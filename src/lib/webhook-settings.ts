/** How deliveries are made; the server's come from its configuration (WEBHOOK_*), tests shorten them. */
export interface WebhookSettings {
  /** Waits before each retry after a failed attempt; its length is the number of retries. */
  retryScheduleMs: number[];
  /** An attempt not answered within this is a failure. */
  timeoutMs: number;
  /** A subscription whose attempts all failed for this long is disabled. */
  disableAfterMs: number;
  /** How long the secret before a rotation still signs. */
  secretOverlapMs: number;
  /** How often due retries (and deliveries left by a stopped server) are looked for. */
  sweepIntervalMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Eight attempts over about 27 hours (the schedule of Standard Webhooks' reference
 * implementation): at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.
 */
export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  retryScheduleMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  timeoutMs: 15 * SECOND,
  disableAfterMs: 24 * HOUR,
  secretOverlapMs: 24 * HOUR,
  sweepIntervalMs: 5 * SECOND,
};
