// The Home tab end to end: signed Events API callbacks (`app_home_opened`) and signed clicks from a Home view
// (block_actions from a `view` container: no channel, no response_url) to the real Bolt app, which publishes each
// person's Home on the Slack stand-in (views.publish, held to Slack's rules) from the store and the payment API
// simulator. The approver sees the quote waiting for them with a link, the requester their request, an outsider an
// explanation; Acknowledge works from the Home; a publish that lost a race is built again.
import { webApi } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { blocksToText, findButtons, messageToText } from '../support/rig/blocks-text.js';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import type { PublishedHome, StoredMessage } from '../support/rig/slack-stand-in.js';
import { silentWebApiLogger } from '../support/rig/web-client.js';
import { ask } from '../support/slack.js';
import { expectStaysAt } from '../support/waiting.js';

const REQUESTER = 'U0RILEY';
const AVERY = 'U0AVERY';
const JORDAN = 'U0JORDAN';
const LEADS = 'S0LEADS';
const OUTSIDER = 'U0SAM';
const CHANNEL = 'C0TREASURY';
const ALERTS = 'C0ALERTS';

let stack: LocalStack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(): Promise<LocalStack> {
  stack = await startLocalStack({
    env: {
      SWAP_APPROVERS: `${AVERY},${LEADS}`,
      TREASURY_USERS: `${REQUESTER},${AVERY},${JORDAN}`,
      ALERT_CHANNEL: ALERTS,
      ALERT_LOOKBACK: '1m',
      // Never fires during a test: polls are started by hand.
      POLL_SCHEDULE: '0 0 1 1 *',
    },
    slack: { usergroups: [{ id: LEADS, handle: 'leads', name: 'Treasury leads', users: [JORDAN] }] },
  });
  return stack;
}

const homeText = (s: LocalStack, userId: string) =>
  blocksToText((s.slack.homeView(userId)?.view.blocks as unknown[] | undefined) ?? []);

/** Opens the Home tab as Slack does (with the view it shows, if any) and waits for a publish that reads `pattern`. */
async function openHome(s: LocalStack, userId: string, pattern: RegExp): Promise<PublishedHome> {
  const before = s.slack.homeView(userId)?.hash;
  const result = await s.driver.openHome(userId, s.slack.homeView(userId));
  // Events are acknowledged at once, with an empty body.
  expect(result.status).toBe(200);
  expect(result.body).toBe('');
  return waitForHome(s, userId, pattern, before);
}

/** Waits for a Home of `userId` published after the one with hash `after`, reading `pattern`. */
function waitForHome(s: LocalStack, userId: string, pattern: RegExp, after?: string): Promise<PublishedHome> {
  return s.slack.waitFor(
    () => {
      const home = s.slack.homeView(userId);
      return home && home.hash !== after && pattern.test(blocksToText(home.view.blocks as unknown[]))
        ? home
        : undefined;
    },
    8_000,
    `the Home of ${userId} reading ${pattern}`,
  );
}

async function requestQuote(s: LocalStack): Promise<StoredMessage> {
  const before = s.slack.messages(CHANNEL).length;
  const answer = await ask(s, 'swap 1,000 USDT@ETH to USDC@ETH', { userId: REQUESTER, channelId: CHANNEL });
  expect(answer.text).toContain('Quote posted');
  return s.slack.waitFor(() => s.slack.messages(CHANNEL)[before], 8_000, 'the quote message');
}

describe('the Home tab', () => {
  it('shows an approver the quote waiting for them with a link, a group member too, the requester their request and nothing to approve, an outsider an explanation', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    const permalink = `https://treasury-test.slack.com/archives/${CHANNEL}/p${quote.ts.replace('.', '')}`;

    const avery = await openHome(s, AVERY, /Waiting for your approval · 1/);
    const text = blocksToText(avery.view.blocks as unknown[]);
    expect(text).toContain(`<${permalink}|Open the quote to approve or reject>`);
    expect(text).toContain('requested by <@U0RILEY>');
    expect(text).toMatch(/Balances · \$[\d,]+\.\d\d/);
    expect(text).toContain('Open alerts');
    expect(findButtons(avery.view.blocks as unknown[]).map((b) => b.actionId)).toEqual([
      'home_new_swap',
      'home_new_invoice',
      'home_set_threshold',
      'home_refresh',
    ]);
    expect(s.slack.callsOf('views.publish').at(-1)?.args).toMatchObject({ user_id: AVERY });

    // Jordan approves as a member of @leads (asked of Slack with usergroups.users.list).
    expect(homeText(s, JORDAN)).toBe('');
    await openHome(s, JORDAN, /Waiting for your approval · 1/);

    const riley = await openHome(s, REQUESTER, /Your recent requests/);
    const rileyText = blocksToText(riley.view.blocks as unknown[]);
    expect(rileyText).toContain('No swap quote is waiting for your approval.');
    expect(rileyText).toMatch(
      /• \*1,000 USDT → USDC\* · ≈ \$1,000 · .* · \*waiting for approval\* · <https:\/\/treasury-test/,
    );

    const reads = s.simulator.requestCount('listAssets');
    const sam = await openHome(s, OUTSIDER, /This bot is for the treasury team/);
    const samText = blocksToText(sam.view.blocks as unknown[]);
    expect(samText).not.toMatch(/Balances|USDT|\$/);
    expect(findButtons(sam.view.blocks as unknown[])).toEqual([]);
    // Nothing is read for someone outside the team.
    expect(s.simulator.requestCount('listAssets')).toBe(reads);
  });

  it('is published again after the person acts elsewhere: an approval in the channel takes the quote off their Home', async () => {
    const s = await start();
    const quote = await requestQuote(s);
    const before = await openHome(s, AVERY, /Waiting for your approval · 1/);
    const current = s.slack.messages(CHANNEL).find((m) => m.ts === quote.ts)!;
    const click = await s.driver.clickButtonIn({ ...current, channel: CHANNEL }, 'swap_approve', {
      userId: AVERY,
      channelId: CHANNEL,
    });
    expect(click.status).toBe(200);
    await waitForHome(s, AVERY, /No swap quote is waiting for your approval\./, before.hash);
    // Someone whose Home this bot never published is not published to after acting: their next open builds it.
    expect(s.slack.homeView(REQUESTER)).toBeUndefined();
  });

  it('Acknowledge from the Home acknowledges the alert (its message says so) and republishes the Home; a stale click is told why nothing changed', async () => {
    const s = await start();
    const failed = s.simulator.addWithdrawal({ status: 'failed' });
    await s.treasury.alerts!.runNow();
    const alert = await s.slack.waitFor(
      () => s.slack.messages(ALERTS).find((m) => (m.text ?? '').includes(failed.id)),
      8_000,
      'the alert message',
    );
    const blockId = `alert:0:withdrawal:${failed.id}`;
    // (The seeded merchant also has rows stuck in pending: their alert is listed too.)
    const home = await openHome(s, AVERY, /Open alerts · \d/);
    const buttons = findButtons(home.view.blocks as unknown[]).filter((b) => b.actionId === 'alert_acknowledge');
    expect(buttons.map((b) => b.blockId)).toContain(blockId);
    expect(blocksToText(home.view.blocks as unknown[])).toContain(
      `<https://treasury-test.slack.com/archives/${ALERTS}/p${alert.ts.replace('.', '')}|open the alert>`,
    );

    const result = await s.driver.clickInHome(home, 'alert_acknowledge', { userId: AVERY, blockId });
    expect(result.status).toBe(200);
    expect(result.body).toBe('');
    // The alert message in the channel is rewritten, as after a click on it.
    await s.slack.waitFor(
      () => /ACKNOWLEDGED/.test(blocksToText(s.slack.messages(ALERTS).find((m) => m.ts === alert.ts)?.blocks ?? [])),
      8_000,
      'the alert message to say ACKNOWLEDGED',
    );
    const after = await waitForHome(s, AVERY, /acknowledged by <@U0AVERY>/, home.hash);
    expect(findButtons(after.view.blocks as unknown[]).map((b) => b.blockId)).not.toContain(blockId);

    // Riley clicks Acknowledge on an older copy of the Home (before Avery's click): nothing changes, and Slack gives
    // no channel to answer in from a Home, so the reason is shown on top of Riley's Home.
    const rileyHome = await openHome(s, REQUESTER, /Open alerts · \d/);
    const stale = { ...rileyHome, view: home.view };
    await s.driver.clickInHome(stale, 'alert_acknowledge', { userId: REQUESTER, blockId });
    const told = await waitForHome(s, REQUESTER, /Nothing changed/, rileyHome.hash);
    expect(blocksToText(told.view.blocks as unknown[])).toMatch(/Nothing changed: <@U0AVERY> acknowledged this alert/);
    const message = messageToText(s.slack.messages(ALERTS).find((m) => m.ts === alert.ts)!);
    expect(message).toContain('Acknowledged by <@U0AVERY>');
    expect(message).not.toContain('U0RILEY');
    // A click from a Home has no response_url: nothing was posted to one, nothing privately in a channel.
    expect(s.slack.callsOf('chat.postEphemeral')).toEqual([]);
  });

  it('a publish that lost a race (hash_conflict) is built again and published once more, without the stale hash', async () => {
    const s = await start();
    const first = await openHome(s, AVERY, /Treasury/);
    // Another publish comes in between (a second replica's, say): Slack's hash moves on.
    const other = new webApi.WebClient('xoxb-local-stack-token', {
      slackApiUrl: s.slack.apiUrl,
      retryConfig: { retries: 0 },
      logger: silentWebApiLogger,
    });
    await other.views.publish({
      user_id: AVERY,
      hash: first.hash,
      view: { type: 'home', blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'from elsewhere' } }] },
    });
    const publishes = s.slack.callsOf('views.publish').length;
    const elsewhere = s.slack.homeView(AVERY)!.hash;

    const refreshed = await s.driver.clickInHome(first, 'home_refresh', { userId: AVERY });
    expect(refreshed.status).toBe(200);
    const rebuilt = await waitForHome(s, AVERY, /Balances/, elsewhere);
    const calls = s.slack.callsOf('views.publish').slice(publishes);
    // The bot's publish with the hash it knew was refused; the rebuilt one went without a hash.
    expect(calls.map((c) => c.args.hash)).toEqual([first.hash, undefined]);
    expect(blocksToText(rebuilt.view.blocks as unknown[])).not.toContain('from elsewhere');
    await expectStaysAt(2, () => s.slack.callsOf('views.publish').length - publishes);
  });

  it('when the payment API fails, says the balances could not be read and shows the rest', async () => {
    const s = await start();
    await requestQuote(s);
    s.simulator.injectFault('listAssets', { status: 401 }, 1);
    const home = await openHome(s, AVERY, /could not be read/);
    const text = blocksToText(home.view.blocks as unknown[]);
    expect(text).toContain('The balances could not be read from the payment service just now');
    expect(text).toContain('Waiting for your approval · 1');
    // Refresh reads them again.
    await s.driver.clickInHome(home, 'home_refresh', { userId: AVERY });
    await waitForHome(s, AVERY, /Balances · \$/, home.hash);
  });

  it('the Messages tab opening is not the Home tab: nothing is published', async () => {
    const s = await start();
    const result = await s.driver.event({ type: 'app_home_opened', user: AVERY, channel: 'D0AVERY', tab: 'messages' });
    expect(result.status).toBe(200);
    await expectStaysAt(0, () => s.slack.callsOf('views.publish').length);
  });
});
