// @ts-check
/* The workspace server's JSON API (/api/*), the only thing the page talks to. */
import { isObject } from './html.js';

/** @typedef {{ ok: boolean, error?: unknown, message?: unknown, [key: string]: unknown }} ApiResult */

/**
 * @param {string} path
 * @returns {Promise<any>}
 */
export async function getJson(path) {
  const response = await fetch(path, { headers: { accept: 'application/json' }, cache: 'no-store' });
  if (!response.ok) throw new Error(`the server answered HTTP ${response.status}`);
  return response.json();
}

/**
 * POSTs JSON; always resolves to an object with `ok` (and `error` or `message` when the server says why).
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<ApiResult>}
 */
export async function postJson(path, body) {
  let response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, error: 'Could not reach the workspace server. Is it still running?' };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    /* not JSON */
  }
  if (isObject(data) && typeof data.ok === 'boolean') return /** @type {ApiResult} */ (data);
  if (response.ok) return { ok: true };
  return { ok: false, error: `The workspace server answered HTTP ${response.status}.` };
}

/**
 * What went wrong, in the server's words when it gave any.
 * @param {{ error?: unknown, message?: unknown }} result
 * @param {string} fallback
 * @returns {string}
 */
export const errorText = (result, fallback) =>
  (typeof result.error === 'string' && result.error) ||
  (typeof result.message === 'string' && result.message) ||
  fallback;
