// Input checks that produce the 400 validation envelope's field errors, class-validator style.
import type { FieldError } from './responses.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when the value is a UUID string (any version). */
function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Collects field errors; `check` adds one message per failed rule. */
export class Checker {
  readonly errors: FieldError[] = [];

  /** Records `message` for `field` when `failed`. */
  check(failed: boolean, field: string, message: string): this {
    if (!failed) return this;
    const existing = this.errors.find((error) => error.field === field);
    if (existing) existing.messages.push(message);
    else this.errors.push({ field, messages: [message] });
    return this;
  }

  /** Requires a UUID (the same message when missing, as the real service shows). */
  uuid(value: unknown, field: string, required = true): this {
    if (value === undefined && !required) return this;
    return this.check(!isUuid(value), field, `${field} must be a UUID`);
  }

  /** Optional string. */
  optionalString(value: unknown, field: string, maxLength = 255): this {
    if (value === undefined) return this;
    this.check(typeof value !== 'string', field, `${field} must be a string`);
    return this.check(
      typeof value === 'string' && value.length > maxLength,
      field,
      `${field} must be shorter than or equal to ${maxLength} characters`,
    );
  }

  /** True when no rule failed. */
  get ok(): boolean {
    return this.errors.length === 0;
  }
}

/** A JSON object body, or null when the body is something else. */
export function asObject(body: unknown): Record<string, unknown> | null {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

/** Unsigned integer string (base units). */
export function isUnsignedIntegerString(value: unknown): value is string {
  return typeof value === 'string' && /^\d+$/.test(value) && value.length <= 78;
}
