/** Ids the payment API hands out. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for the UUID ids the API uses. */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}
