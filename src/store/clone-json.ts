// Shared by both stores and the pure changes: every read hands out a copy, never the stored record itself.

/**
 * A deep copy of JSON data that keeps prototype-free objects prototype-free (structuredClone gives every
 * object Object.prototype back, and keyed records must not inherit `constructor`, `toString`…).
 */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.create(Object.getPrototypeOf(value) === null ? null : Object.prototype) as Record<
    string,
    unknown
  >;
  for (const [key, item] of Object.entries(value)) {
    // defineProperty, not assignment: an own `__proto__` key must stay a key, not become a prototype.
    Object.defineProperty(copy, key, { value: cloneJson(item), enumerable: true, writable: true, configurable: true });
  }
  return copy as T;
}
