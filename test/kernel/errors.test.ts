// The one list of stable error codes, the coded error type and asCodedError: every error class of the bot carries a
// code from the list, and anything thrown turns into a CodedError with the message the log lines always showed.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { PollAbortedError } from '../../src/features/alerts/poller/walk.js';
import {
  AmountError,
  asCodedError,
  CodedError,
  ERROR_CODES,
  type ErrorCode,
  isErrorCode,
  StartupError,
  UserFacingError,
} from '../../src/kernel/errors.js';
import { StoreError } from '../../src/kernel/store-error.js';
import {
  PaymentsForbiddenError,
  PaymentsNetworkError,
  PaymentsNotFoundError,
  PaymentsRateLimitedError,
  PaymentsServerError,
  PaymentsUnauthorizedError,
  PaymentsUnexpectedResponseError,
  PaymentsValidationError,
} from '../../src/payments/index.js';
import { FileUploadError, ResponseUrlError, SlackBackoffError } from '../../src/slack/errors.js';
import { SocketModeRefusedError } from '../../src/slack/socket-mode.js';
import { CorruptStateError, StateFileRefusedError } from '../../src/store/lowdb/state-file.js';

const SRC_DIR = new URL('../../src/', import.meta.url);

describe('ERROR_CODES', () => {
  const entries = Object.entries(ERROR_CODES);

  it('names each code once, in snake_case', () => {
    const codes = entries.map(([code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('says in one line what each code means, and no two codes mean the same', () => {
    for (const [code, meaning] of entries) {
      expect(meaning, code).toMatch(/^\S.*[.…]$/);
      expect(meaning, code).not.toContain('\n');
      expect(meaning.length, code).toBeLessThan(140);
    }
    const meanings = entries.map(([, meaning]) => meaning);
    expect(new Set(meanings).size).toBe(meanings.length);
  });

  it('keeps the codes that tests, logs and callers already branch on', () => {
    for (const code of [
      'user_facing',
      'usage',
      'storage_unavailable',
      'store',
      'store_corrupt_state',
      'validation',
      'unauthorized',
      'forbidden',
      'not_found',
      'rate_limited',
      'server',
      'network',
      'unexpected_response',
      'slack_backoff',
      'slack_response_url_error',
      'slack_file_upload_error',
      'config_invalid',
      'startup_failed',
      'poll_aborted',
    ])
      expect(isErrorCode(code), code).toBe(true);
    expect(isErrorCode('no_such_code')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });

  it('is the only place an error class of the product declares its code', () => {
    const files = readdirSync(SRC_DIR, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'));
    const declaring = files.filter((file) => /readonly code = '/.test(readFileSync(new URL(file, SRC_DIR), 'utf8')));
    expect(declaring).toEqual([]);
  });
});

/** One of every error class of the product, with the code it carries. */
const EVERY_CLASS: [string, CodedError, ErrorCode][] = [
  ['UserFacingError', new UserFacingError('Nope.'), 'user_facing'],
  ['UserFacingError with a code', new UserFacingError('Only admins.', 'not_admin'), 'not_admin'],
  ['AmountError', new AmountError('zero', 'Amount must be greater than zero.'), 'zero'],
  ['StartupError', new StartupError('port in use'), 'startup_failed'],
  ['ConfigError', new ConfigError(['PORT: expected a number']), 'config_invalid'],
  ['PollAbortedError', new PollAbortedError('the poll was stopped'), 'poll_aborted'],
  ['PaymentsValidationError', new PaymentsValidationError('createInvoice', 'Bad', []), 'validation'],
  ['PaymentsUnauthorizedError', new PaymentsUnauthorizedError('getInvoice'), 'unauthorized'],
  ['PaymentsForbiddenError', new PaymentsForbiddenError('createSwap', 'swap'), 'forbidden'],
  ['PaymentsNotFoundError', new PaymentsNotFoundError('getSwap'), 'not_found'],
  ['PaymentsRateLimitedError', new PaymentsRateLimitedError('listAssets', 1_000), 'rate_limited'],
  ['PaymentsServerError', new PaymentsServerError('getAsset', 503, undefined), 'server'],
  ['PaymentsNetworkError', new PaymentsNetworkError('getDeposit', 'ECONNRESET'), 'network'],
  [
    'PaymentsUnexpectedResponseError',
    new PaymentsUnexpectedResponseError('getWithdrawal', 'amount', 200),
    'unexpected_response',
  ],
  ['SlackBackoffError', new SlackBackoffError('C1', 2_000), 'slack_backoff'],
  ['ResponseUrlError', new ResponseUrlError(400, 'invalid_blocks'), 'slack_response_url_error'],
  ['FileUploadError', new FileUploadError(500), 'slack_file_upload_error'],
  [
    'SocketModeRefusedError',
    new SocketModeRefusedError('invalid_auth', 'Slack rejected it'),
    'slack_socket_mode_refused',
  ],
  ['StoreError', new StoreError('the state store is closed'), 'store'],
  ['StoreError unavailable', new StoreError('no database', 'storage_unavailable'), 'storage_unavailable'],
  ['CorruptStateError', new CorruptStateError('the file is empty'), 'store_corrupt_state'],
  ['StateFileRefusedError', new StateFileRefusedError('Cannot start', 'empty'), 'store_corrupt_state'],
];

describe('every error class', () => {
  it.each(EVERY_CLASS)('%s is a CodedError with its stable code', (_, error, code) => {
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(isErrorCode(error.code)).toBe(true);
    expect(asCodedError(error)).toBe(error);
  });

  it('keeps its name, and facts for the log in its context', () => {
    expect(new PaymentsNotFoundError('getSwap').name).toBe('PaymentsNotFoundError');
    expect(new PaymentsServerError('getAsset', 503, undefined).context).toEqual({
      operation: 'getAsset',
      status: 503,
    });
    expect(new SlackBackoffError('C1', 2_000).context).toEqual({ channel: 'C1', waitMs: 2_000 });
    expect(new StartupError('port in use').name).toBe('StartupError');
  });
});

class Unclassified extends Error {
  constructor(
    message: string,
    readonly code?: unknown,
  ) {
    super(message);
  }
}

const slackPlatformError = Object.assign(new Error('An API error occurred: channel_not_found'), {
  code: 'slack_webapi_platform_error',
  data: { ok: false, error: 'channel_not_found' },
});

/** What asCodedError makes of a thrown value: its code, message and context; `cause` is always the value itself. */
const THROWN: [string, unknown, { code: ErrorCode; message: string; context: Record<string, unknown> }][] = [
  ['a plain Error', new Error('boom'), { code: 'unknown', message: 'boom', context: {} }],
  ['a TypeError', new TypeError('fetch failed'), { code: 'unknown', message: 'fetch failed', context: {} }],
  [
    'a Node system error',
    new Unclassified('read ECONNRESET', 'ECONNRESET'),
    { code: 'unknown', message: 'read ECONNRESET', context: { foreignCode: 'ECONNRESET' } },
  ],
  [
    'a Slack SDK error (its code is in the list)',
    slackPlatformError,
    {
      code: 'slack_webapi_platform_error',
      message: 'An API error occurred: channel_not_found',
      context: { slackError: 'channel_not_found' },
    },
  ],
  [
    'an Error carrying one of our codes',
    new Unclassified('no database', 'storage_unavailable'),
    { code: 'storage_unavailable', message: 'no database', context: {} },
  ],
  ['a string', 'went wrong', { code: 'unknown', message: 'went wrong', context: {} }],
  ['a number', 42, { code: 'unknown', message: '42', context: {} }],
  ['an object', { reason: 'x' }, { code: 'unknown', message: '[object Object]', context: {} }],
  [
    'an object with one of our codes',
    { code: 'store', message: 'closed' },
    { code: 'store', message: '[object Object]', context: {} },
  ],
  ['null', null, { code: 'unknown', message: 'null', context: {} }],
  ['undefined', undefined, { code: 'unknown', message: 'undefined', context: {} }],
];

describe('asCodedError', () => {
  it.each(THROWN)('turns %s into a CodedError', (_, thrown, expected) => {
    const coded = asCodedError(thrown);
    expect(coded).toBeInstanceOf(CodedError);
    expect({ code: coded.code, message: coded.message, context: coded.context }).toEqual(expected);
    expect(coded.cause).toBe(thrown);
  });

  it('gives the message `error instanceof Error ? error.message : String(error)` gave', () => {
    for (const [, thrown] of THROWN)
      expect(asCodedError(thrown).message).toBe(thrown instanceof Error ? thrown.message : String(thrown));
  });

  it('returns a CodedError as it is, subclass and all', () => {
    const error = new PaymentsRateLimitedError('listAssets', undefined);
    expect(asCodedError(error)).toBe(error);
    const coded = new CodedError('store', 'closed', { context: { file: 'state.json' } });
    expect(asCodedError(coded)).toBe(coded);
  });
});
