// A damaged swap quote row on PostgreSQL counts as the worst case wherever the daily limit or a requester's 24-hour
// total is judged: at quote time (before any estimate) and at the approval, end to end over signed HTTP with the real
// app, the payment API simulator and the Slack stand-in. (The state file refuses to start on a damaged quote:
// test/store-damage.test.ts.)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startSimulator } from '../../dev/simulator/index.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createPaymentsClient } from '../../src/payments/index.js';
import { testCluster } from '../support/postgres.js';
import { startReplica } from '../support/replica.js';
import { blocksToText } from '../support/rig/blocks-text.js';
import { startSlackStandIn } from '../support/rig/slack-stand-in.js';

const TOKEN = 'xoxb-damaged-quote';
const SECRET = 'damaged-quote-signing-secret';
const CHANNEL = 'C0TREASURY';
const RILEY = 'U0RILEY';
const AVERY = 'U0AVERY';
const LEASE_KEY = 0x6461_6d61_6765_6431n;
const BLOCKED = /A damaged record in the bot's database \(swap quote "damaged-q"\) blocks this/;

const postgres = testCluster('damaged_quote_limits');

describe.skipIf(!postgres.available)('a damaged swap quote row on PostgreSQL', () => {
  it('refuses a new quote before any estimate, and refuses the approval of a quote made before it, naming it', async () => {
    const databaseUrl = await postgres.createDatabase();
    const sim = await startSimulator({ quiet: true });
    const slack = await startSlackStandIn({ botToken: TOKEN });
    const lines: string[] = [];
    const replica = await startReplica({
      name: 'a',
      store: { kind: 'postgres', databaseUrl },
      config: loadConfig({
        PAYMENTS_API_URL: sim.url,
        PAYMENTS_API_KEY: sim.apiKey,
        SLACK_BOT_TOKEN: TOKEN,
        SLACK_SIGNING_SECRET: SECRET,
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        DATA_FILE: join(mkdtempSync(join(tmpdir(), 'damaged-quote-')), 'state.json'),
        SWAP_APPROVERS: AVERY,
        TREASURY_USERS: `${RILEY},${AVERY}`,
        SWAP_POLICY: '0:1',
        SWAP_DAILY_LIMIT_USD: '100000',
        POLL_SCHEDULE: '0 0 1 1 *',
      }),
      payments: createPaymentsClient({ baseUrl: sim.url, apiKey: sim.apiKey, timeoutMs: 2_000 }),
      logger: createLogger('debug', (line) => lines.push(line)),
      now: () => new Date(sim.now()),
      slack,
      signingSecret: SECRET,
      leaseKey: LEASE_KEY,
      app: { alertSleep: async () => undefined },
    });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const ask = async (text: string, userId: string) => {
        const result = await replica.driver.command(text, { userId, channelId: CHANNEL });
        expect(result.status).toBe(200);
        const [reply] = await result.waitForResponses(1, 10_000);
        return reply!.blocks ? blocksToText(reply!.blocks) : (reply!.text ?? '');
      };
      // A quote made while every row reads.
      expect(await ask('swap 1,000 USDT@ETH to USDC@ETH', RILEY)).toContain('Quote posted');
      const posted = await slack.waitFor(() => slack.messages(CHANNEL)[0], 10_000, 'the quote message');

      // A row of the last 24 hours that cannot be decoded (a hand edit, a bug in an old version): its asset, its
      // requester and its amount are unknown, so it might use the whole limit.
      await client.query(
        `INSERT INTO swap_quotes (id, status, estimated_at, record) VALUES ('damaged-q', 'created', $1, '{"id":"damaged-q","status":"created"}')`,
        [new Date(sim.now() - 60_000).toISOString()],
      );

      const estimatesBefore = sim.requestCount('estimateSwap');
      expect(await ask('swap 10 USDT@ETH to USDC@ETH', RILEY)).toMatch(BLOCKED);
      expect(sim.requestCount('estimateSwap')).toBe(estimatesBefore);
      expect(slack.messages(CHANNEL)).toHaveLength(1);

      const click = await replica.driver.clickButtonIn({ ...posted, channel: CHANNEL }, 'swap_approve', {
        userId: AVERY,
        channelId: CHANNEL,
      });
      expect(click.status).toBe(200);
      const [notice] = await click.waitForResponses(1, 10_000);
      expect(notice?.text ?? blocksToText(notice?.blocks ?? [])).toMatch(BLOCKED);
      expect(sim.requestCount('createSwap')).toBe(0);
      const { rows } = await client.query<{ status: string }>(`SELECT status FROM swap_quotes WHERE id <> 'damaged-q'`);
      expect(rows.map((row) => row.status)).toEqual(['pending']);
    } finally {
      await client.end();
      await replica.close();
      await slack.close();
      await sim.close();
    }
  });
});
