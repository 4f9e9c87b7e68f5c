/** Why a source could not be read, in words safe to show in Slack and to log. */
import { clipText } from '../../../kernel/text.js';
import { PaymentsError } from '../../../payments/index.js';

/** A reason safe to show and log: our error classes carry no API key; long API texts are clipped. */
export function describeReadError(error: unknown): { code: string; message: string } {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof PaymentsError ? error.code : 'internal';
  return { code, message: clipText(message, 300) };
}
