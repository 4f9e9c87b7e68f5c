// The reset picker on both stores, and across replicas on PostgreSQL: the picker carries no state of its own, so an
// admin's `2fa reset @avery` answered by one replica can be submitted to another, which checks the admin again and
// resets Avery in the shared store (recorded as by the admin); the first replica then sees her not enrolled.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { VIEW_IDS } from '../../src/blocks/ids.js';
import { loadConfig } from '../../src/config.js';
import { RESET_PERSON } from '../../src/features/second-factor/blocks.js';
import { decodeSlackEntities } from '../../src/kernel/text.js';
import { silentLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { testCluster } from '../support/postgres.js';
import { type Replica, type StoreChoice, startReplica } from '../support/replica.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { type Answer, toAnswer } from '../support/slack.js';

const TOKEN = 'xoxb-reset-picker';
const SECRET = 'reset-picker-signing-secret';
const ADMIN = 'U0ADMIN';
const AVERY = 'U0AVERY';
const LEASE_KEY = 0x7265_7365_7470_6b72n;

const postgres = testCluster('reset_picker');
const stores: { name: string; skip: boolean; replicas: number; choice: () => Promise<StoreChoice> }[] = [
  { name: 'the state file', skip: false, replicas: 1, choice: async () => ({ kind: 'file' }) },
  {
    name: 'PostgreSQL, two replicas',
    skip: !postgres.available,
    replicas: 2,
    choice: async () => ({ kind: 'postgres', databaseUrl: await postgres.createDatabase() }),
  },
];

describe.each(stores)('the reset picker on $name', ({ skip, replicas: count, choice }) => {
  let simulator: PaymentsSimulator;
  let slack: SlackStandIn;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    if (skip) return;
    const store = await choice();
    simulator = await startSimulator({ quiet: true });
    slack = await startSlackStandIn({ botToken: TOKEN });
    const config = loadConfig({
      PAYMENTS_API_URL: simulator.url,
      PAYMENTS_API_KEY: simulator.apiKey,
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      PORT: '0',
      DATA_FILE: join(mkdtempSync(join(tmpdir(), 'reset-picker-')), 'state.json'),
      TREASURY_ADMINS: ADMIN,
      TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      POLL_SCHEDULE: '0 0 1 1 *',
    });
    const payments = createPaymentsClient({
      baseUrl: config.paymentsApiUrl,
      apiKey: config.paymentsApiKey,
      logger: silentLogger,
    });
    for (let n = 0; n < count; n++)
      replicas.push(
        await startReplica({
          name: `replica-${n + 1}`,
          store,
          config,
          payments,
          logger: silentLogger,
          now: () => new Date(simulator.now()),
          slack,
          signingSecret: SECRET,
          leaseKey: LEASE_KEY,
        }),
      );
  }, 60_000);
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await slack?.close();
    await simulator?.close();
  });

  async function ask(replica: Replica, text: string, userId: string): Promise<Answer> {
    const result = await replica.driver.command(text, { userId });
    expect(result.status).toBe(200);
    const [reply] = await result.waitForResponses(1, 10_000);
    return toAnswer(result, reply!);
  }

  it.skipIf(skip)(
    'opened by the first replica, submitted to the last (another one on PostgreSQL): Avery is reset',
    async () => {
      const first = replicas[0]!;
      const last = replicas.at(-1)!;
      // Avery enrols with the code her app would show.
      await ask(first, '2fa enroll', AVERY);
      const dm = await slack.waitFor(
        () => slack.messages().find((m) => m.channel.startsWith('D') && (m.text ?? '').includes('otpauth://')),
        10_000,
        'the enrolment DM',
      );
      const uri = decodeSlackEntities(/otpauth:\/\/totp\/[^\s`>]+/.exec(dm.text ?? '')?.[0] ?? '');
      const secret = new URL(uri).searchParams.get('secret')!;
      const code = generateSync({ secret, epoch: Math.floor(simulator.now() / 1000) });
      expect((await ask(first, `2fa confirm ${code}`, AVERY)).text).toContain('You are enrolled.');

      const result = await first.driver.command('2fa reset @avery', { userId: ADMIN });
      expect(result.status).toBe(200);
      const picker = await slack.waitFor(() => slack.views()[0], 10_000, 'the reset picker');
      expect(picker.view.callback_id).toBe(VIEW_IDS.secondFactorReset);
      const values = { [RESET_PERSON.blockId]: { [RESET_PERSON.actionId]: AVERY } };
      expect(await last.driver.submitView(picker, { userId: ADMIN, values })).toBeNull();

      expect((await ask(first, '2fa', AVERY)).text).toContain('You are *not enrolled*');
      const trail = await first.store.secondFactor.listSecondFactorTrail(new Date(0));
      expect(trail.at(-1)).toMatchObject({ event: 'reset', userId: AVERY, by: ADMIN });
      // A second submission, on either replica, finds nothing left to reset.
      expect(await first.driver.submitView(picker, { userId: ADMIN, values })).toEqual({
        response_action: 'errors',
        errors: { [RESET_PERSON.blockId]: 'That person has no second factor: nothing to reset.' },
      });
    },
  );
});
