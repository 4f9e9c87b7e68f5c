/**
 * The swap form on both stores (the state file and PostgreSQL): the preview reads the requester's swaps of the last
 * 24 hours and the freeze from the store, as the typed path does. A typed $8,000 swap, then a $3,000 swap through the
 * form: the preview counts both ($11,000: the second tier, two approvals), the submission sent twice makes one quote
 * in the store; while frozen the submission is refused under the field and nothing is estimated.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PaymentsSimulator, startSimulator } from '../../dev/simulator/index.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { type Replica, startReplica } from '../support/replica.js';
import { type SlackStandIn, startSlackStandIn } from '../support/rig/slack-stand-in.js';
import { currentView, SWAP_FORM, swapFormEntry, viewText, waitForForm } from '../support/rig/swap-form.js';
import { toAnswer } from '../support/slack.js';
import { replicaStores } from '../support/store-backends.js';

const TOKEN = 'xoxb-forms-stores';
const SECRET = 'forms-stores-signing-secret';
const REQUESTER = 'U0REQUESTER';
const APPROVER = 'U0APPROVER';
const CHANNEL = 'C0TREASURY';
const F = SWAP_FORM;

const stores = replicaStores('forms_swap_e2e');

describe.each(stores)('the swap form on $name', ({ skip, choice }) => {
  let simulator: PaymentsSimulator;
  let slack: SlackStandIn;
  let replica: Replica;

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
      DATA_FILE: join(mkdtempSync(join(tmpdir(), 'forms-swap-')), 'state.json'),
      SWAP_APPROVERS: APPROVER,
      SWAP_POLICY: '0:1,10000:2',
    });
    const payments = createPaymentsClient({
      baseUrl: config.paymentsApiUrl,
      apiKey: config.paymentsApiKey,
      logger: silentLogger,
      timeoutMs: 2_000,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 5 },
    });
    replica = await startReplica({
      name: 'a',
      store,
      config,
      payments,
      logger: silentLogger,
      now: () => new Date(simulator.now()),
      slack,
      signingSecret: SECRET,
      leaseKey: 0x666f_726d_7377_6170n,
      app: { alertSleep: async () => undefined, swapFollow: { intervalMs: 50, maxDurationMs: 60_000 } },
    });
  }, 30_000);
  afterAll(async () => {
    await replica?.close();
    await slack?.close();
    await simulator?.close();
  });

  const current = (id: string) => currentView(slack, id);
  const formShowing = (id: string, pattern: RegExp) => waitForForm(slack, id, pattern);
  const entered = (amount: string) => swapFormEntry(simulator, amount);
  const typed = async (text: string, userId: string) => {
    const result = await replica.driver.command(text, { userId, channelId: CHANNEL });
    const [reply] = await result.waitForResponses(1);
    return toAnswer(result, reply!);
  };

  it.skipIf(skip)(
    'counts the requester’s swaps of the last 24 hours from the store, makes one quote of a double submission, and refuses while frozen',
    async () => {
      expect((await typed('swap 8,000 USDT@ETH to USDC@ETH', REQUESTER)).text).toContain('Quote posted');
      slack.reset();

      const result = await replica.driver.command('swap', { userId: REQUESTER, channelId: CHANNEL });
      const opened = await slack.waitFor(() => slack.views()[0], 5_000, 'the form');
      const ready = await formShowing(opened.id, /USDT on [^·]+ · /);
      await replica.driver.useInView(ready, F.amount, F.amount, {
        values: entered('3,000'),
        trigger: 'on_character_entered',
        userId: REQUESTER,
      });
      const previewed = viewText(await formShowing(opened.id, /Needs \*/));
      expect(previewed).toContain('Needs *2 distinct approvals* from the swap approvers (tier 2 of 2, from $10,000)');
      expect(previewed).toMatch(/this makes \$11,0\d\d(\.\d\d)?: 2 approvals/);

      const before = simulator.requestCount('estimateSwap');
      const answers = await Promise.all([
        replica.driver.submitView(current(opened.id), { values: entered('3,000'), userId: REQUESTER }),
        replica.driver.submitView(current(opened.id), { values: entered('3,000'), userId: REQUESTER }),
      ]);
      expect(answers).toEqual([null, null]);
      const [reply] = await result.waitForResponses(1);
      expect(toAnswer(result, reply!).text).toContain('it needs 2 approvals');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(simulator.requestCount('estimateSwap') - before).toBe(1);
      const pending = await replica.store.swapQuotes.listQuotesByStatus('pending');
      expect(pending.map((quote) => quote.amountFrom).sort()).toEqual(['3000000000', '8000000000']);

      expect((await typed('freeze testing the form on both stores', APPROVER)).text).toMatch(/frozen/i);
      slack.reset();
      await replica.driver.command('swap', { userId: REQUESTER, channelId: CHANNEL });
      const again = await formShowing(
        (await slack.waitFor(() => slack.views()[0], 5_000, 'the form')).id,
        /USDT on [^·]+ · /,
      );
      const frozenAt = simulator.requestCount('estimateSwap');
      expect(await replica.driver.submitView(again, { values: entered('10'), userId: REQUESTER })).toMatchObject({
        response_action: 'errors',
        errors: { [F.amount]: expect.stringMatching(/^Money is frozen by @U0APPROVER .*No quote was made/) },
      });
      expect(simulator.requestCount('estimateSwap')).toBe(frozenAt);
    },
    60_000,
  );
});
