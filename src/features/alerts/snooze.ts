// ---------------------------------------------------------------------------------------------------------
// The snooze menu of an alert: its choices and how people read them. Pure words; the time a choice ends at
// needs time zone rules and is worked out in features/alerts/snooze-until.ts.

/** The snooze menu's choices, in the order it shows them. */
export const SNOOZE_CHOICES = ['1h', '4h', 'tomorrow'] as const;
export type SnoozeChoice = (typeof SNOOZE_CHOICES)[number];

/** The hour of the day "until tomorrow" ends at, in ALERT_TIME_ZONE. */
export const SNOOZE_TOMORROW_HOUR = 9;

/** Whether a menu value (from a click, so not to be trusted) is one of the choices. */
export function isSnoozeChoice(value: unknown): value is SnoozeChoice {
  return typeof value === 'string' && (SNOOZE_CHOICES as readonly string[]).includes(value);
}

/** The choice as the menu shows it: "For 1 hour", "For 4 hours", "Until tomorrow 09:00 (Europe/Berlin)". */
export function describeSnoozeChoice(choice: SnoozeChoice, timeZone: string): string {
  switch (choice) {
    case '1h':
      return 'For 1 hour';
    case '4h':
      return 'For 4 hours';
    case 'tomorrow':
      return `Until tomorrow ${String(SNOOZE_TOMORROW_HOUR).padStart(2, '0')}:00 (${timeZone})`;
  }
}
