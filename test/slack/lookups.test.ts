import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';
import { ask, click, share } from '../support/slack.js';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack();
});
afterAll(() => stack.close());
beforeEach(() => stack.simulator.resetRequests());

describe('/treasury help', () => {
  it.each(['', 'help', 'HELP'])('%j lists the subcommands by group', async (text) => {
    const answer = await ask(stack, text);
    for (const group of ['*Look up* — `balances` · `balance`', '*Get paid* — `invoice`', '*Move money* — `swap`']) {
      expect(answer.text).toContain(group);
    }
    expect(answer.text).toContain('*Alerts* — `alerts`');
    expect(answer.text).toContain('*Controls* — `freeze`');
    expect(answer.text).toContain('`/treasury help <subcommand>`');
    expect(answer.text).not.toContain('• `/treasury');
    expect(answer.reply.responseType).toBe('ephemeral');
    expect(stack.simulator.requestCount()).toBe(0);
  });

  it("`help swap` gives the swap subcommand's lines with examples, and nothing of the others", async () => {
    const answer = await ask(stack, 'help swap');
    // mrkdwn: `<asset>` placeholders are escaped, so Slack shows them instead of reading them as links.
    expect(answer.text).toContain(
      '• `/treasury swap &lt;amount&gt; &lt;from-asset&gt; to &lt;to-asset&gt;` — a swap quote for approval, e.g. `swap 1,000 USDT@ETH to USDC@ETH`',
    );
    expect(answer.text).toContain('• `/treasury swap &lt;swap-id&gt;` — one swap');
    expect(answer.text).not.toContain('/treasury balances');
    expect(answer.text).not.toContain('*Look up*');
    expect(answer.reply.responseType).toBe('ephemeral');
    expect(stack.simulator.requestCount()).toBe(0);
  });

  it('`help nosuch` says plainly that there is no such subcommand, and lists the groups', async () => {
    const answer = await ask(stack, 'help nosuch');
    expect(answer.text).toContain(':warning: "nosuch" is not a /treasury command. These are:');
    expect(answer.text).toContain('*Look up* — `balances`');
    expect(answer.text).toContain('*Controls* — `freeze`');
  });

  it('a word that is not a subcommand gets the help, led by a plain notice that quotes it escaped', async () => {
    const answer = await ask(stack, 'frobnicate <!here>');
    expect(answer.text).toContain(':warning: "frobnicate" is not a /treasury command. These are:');
    expect(answer.text).toContain('*Look up* — `balances`');
    expect(answer.text).not.toContain('<!here>');
    const hostile = await ask(stack, '<!channel>');
    expect(hostile.text).toContain('"&lt;!channel&gt;" is not a /treasury command');
    expect(hostile.text).not.toContain('<!channel>');
    expect(stack.simulator.requestCount()).toBe(0);
  });
});

describe('/treasury balances', () => {
  it('lists every asset with symbol, network, token balance and USD, largest first, and the exact total', async () => {
    const assets = await stack.payments.listAssets();
    const answer = await ask(stack, 'balances');
    expect(answer.text).toContain('*USDT* · Ethereum (ETH) — 152,340.25 USDT · $152,340.25');
    expect(answer.text).toContain('*USDT* · BNB Smart Chain (BSC) — 48,210.5 USDT · $48,210.50');
    expect(answer.text).toContain('*ETH* · Ethereum (ETH) — 12.5 ETH');
    // The total is the exact sum of the API's USD strings, rounded to cents once.
    expect(answer.text).toContain('Balances · $378,019.45');
    expect(answer.text).toContain(`${assets.length} assets`);
    const order = ['152,340.25 USDT', '98,765.43 USDC', '48,210.5 USDT'].map((s) => answer.text.indexOf(s));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(answer.reply.responseType).toBe('ephemeral');
  });
});

describe('/treasury balance <asset>', () => {
  it('shows one asset with available-for-withdrawal, wallet and fees', async () => {
    const asset = await stack.payments.getAsset(stack.simulator.ids.assets.usdtBsc);
    stack.simulator.resetRequests();
    const answer = await ask(stack, 'balance usdt@bsc');
    expect(answer.text).toContain('USDT on BNB Smart Chain');
    expect(answer.text).toContain('*Available for withdrawal*');
    expect(answer.text).toContain(asset.wallet);
    expect(answer.text).toContain(`${asset.feePercent}% + $0.10`);
    expect(stack.simulator.requestCount('getAsset')).toBe(1);
  });

  it('accepts an asset id and a unique symbol', async () => {
    expect((await ask(stack, `balance ${stack.simulator.ids.assets.eth}`)).text).toContain('ETH on Ethereum');
    expect((await ask(stack, 'balance dai')).text).toContain('DAI on Ethereum');
  });

  it('lists the candidates when a symbol is ambiguous, and calls no single-asset read', async () => {
    const answer = await ask(stack, 'balance USDT');
    expect(answer.text).toContain('"USDT" matches more than one asset. Say which: `USDT@ETH`, `USDT@BSC`.');
    expect(stack.simulator.requestCount('getAsset')).toBe(0);
  });

  it('lists what exists when the asset is unknown', async () => {
    const answer = await ask(stack, 'balance DOGE');
    expect(answer.text).toContain('No asset "DOGE" for this merchant. Available:');
    expect(answer.text).toContain('`ETH@ETH`');
  });
});

describe('/treasury withdrawal(s)', () => {
  it('shows a page of withdrawals newest first with a Next button, and Next/Previous move between pages', async () => {
    const ids = stack.simulator.ids.withdrawals.all;
    const first = await ask(stack, 'withdrawals');
    expect(first.text).toContain('Withdrawals · page 1 of 5');
    expect(first.text.indexOf(ids[0]!)).toBeLessThan(first.text.indexOf(ids[1]!));
    expect(first.text).not.toContain(ids[10]!);
    expect(first.buttons.map((b) => b.text)).toEqual(['Next ▶']);

    const second = await click(stack, first, 'withdrawals_page_next');
    expect(second.reply.replaceOriginal).toBe(true);
    expect(second.text).toContain('Withdrawals · page 2 of 5');
    expect(second.text).toContain(ids[10]!);
    expect(second.buttons.map((b) => b.text)).toEqual(['◀ Previous', 'Next ▶']);

    const back = await click(stack, second, 'withdrawals_page_previous');
    expect(back.text).toContain('page 1 of 5');
  });

  it('`withdrawals 3` opens page 3; a page past the end says so', async () => {
    expect((await ask(stack, 'withdrawals 3')).text).toContain('page 3 of 5');
    expect((await ask(stack, 'withdrawals 9')).text).toContain('Page 9 is past the end: there are 5 pages.');
  });

  it('shows one failed withdrawal with amount, network, destination and the missing tx hash', async () => {
    const id = stack.simulator.ids.withdrawals.failed[0]!;
    const withdrawal = await stack.payments.getWithdrawal(id);
    const answer = await ask(stack, `withdrawal ${id}`);
    expect(answer.text).toContain(':x: failed');
    expect(answer.text).toContain(withdrawal.address);
    expect(answer.text).toContain('_not sent on-chain yet_');
    expect(answer.text).toContain(`Withdrawal id \`${id}\``);
  });

  it('says when a withdrawal belongs to nobody this merchant knows', async () => {
    const answer = await ask(stack, `withdrawal ${stack.simulator.ids.foreign.withdrawal}`);
    expect(answer.text).toContain('No such withdrawal for this merchant.');
  });
});

describe('/treasury payouts and task', () => {
  it('lists failed tasks newest first', async () => {
    const answer = await ask(stack, 'payouts failed');
    expect(answer.text).toContain('Payout tasks · failed');
    const failed = stack.simulator.ids.tasks.failed;
    expect(answer.text).toContain(failed[0]!);
    expect(answer.text.indexOf(failed[0]!)).toBeLessThan(answer.text.indexOf(failed[1]!));
    expect(answer.text).not.toMatch(/:white_check_mark:/);
    expect(stack.simulator.requests.find((r) => r.operation === 'listPayoutTasks')?.query).toMatchObject({
      status: 'failed',
    });
  });

  it('filters by asset and sends the asset id', async () => {
    const answer = await ask(stack, 'payouts USDT@BSC');
    expect(answer.text).toContain('Payout tasks · USDT@BSC');
    expect(stack.simulator.requests.find((r) => r.operation === 'listPayoutTasks')?.query).toMatchObject({
      assetId: stack.simulator.ids.assets.usdtBsc,
    });
  });

  it('pages through every task with Next page while there is a next cursor', async () => {
    const all = stack.simulator.ids.tasks.all;
    const seen = new Set<string>();
    let answer = await ask(stack, 'payouts');
    for (let guard = 0; guard < 20; guard++) {
      for (const id of all) if (answer.text.includes(id)) seen.add(id);
      if (!answer.buttons.some((b) => b.actionId === 'payouts_page')) break;
      answer = await click(stack, answer, 'payouts_page');
    }
    expect(seen.size).toBe(all.length);
    expect(answer.text).toContain('That is all.');
  });

  it('shows one task with its gas from fee.network', async () => {
    const id = stack.simulator.ids.tasks.failed[0]!;
    const task = await stack.payments.getPayoutTask(id);
    const answer = await ask(stack, `task ${id}`);
    const gasLeg = task.fee.network[0]!;
    expect(answer.text).toContain('*Gas (network fee)*');
    expect(answer.text).toContain(`${gasLeg.currency}`);
    expect(answer.text).toContain(task.payoutId);
  });
});

describe('/treasury deposit', () => {
  it('shows an old deposit whose fee has no USD price, saying so', async () => {
    const answer = await ask(stack, `deposit ${stack.simulator.ids.deposits.legacyNoUsd}`);
    expect(answer.text).toContain('n/a (this deposit predates USD pricing)');
    expect(answer.text).toContain('*Service fee*');
  });

  it('shows a frozen deposit', async () => {
    expect((await ask(stack, `deposit ${stack.simulator.ids.deposits.frozen}`)).text).toContain('frozen');
  });
});

describe('/treasury gas', () => {
  it('shows target, top-up, charged, status and sub-status, without cancelled rows', async () => {
    const answer = await ask(stack, 'gas');
    expect(answer.text).toMatch(/top-up [\d.]+ (ETH|BNB|POL)/);
    expect(answer.text).toMatch(/charged [\d.,]+ (USDT|USDC)/);
    expect(answer.text).not.toContain('cancelled ·');
    expect(answer.text).toContain('Cancelled top-ups are left out');
  });

  it('`gas cancelled` asks the API for them explicitly', async () => {
    const answer = await ask(stack, 'gas cancelled');
    expect(answer.text).toContain('cancelled · enough_balance');
    expect(stack.simulator.requests.find((r) => r.operation === 'listGasDistributions')?.query).toMatchObject({
      status: 'cancelled',
    });
  });

  it("Next page reaches the not_enough_donor_balance row that is on the API's second page", async () => {
    const target = stack.simulator.ids.gas.notEnoughDonorOnSecondPage;
    let answer = await ask(stack, 'gas');
    let pages = 1;
    while (!answer.text.includes(target) && answer.buttons.some((b) => b.actionId === 'gas_page') && pages < 10) {
      answer = await click(stack, answer, 'gas_page');
      pages++;
    }
    expect(answer.text).toContain(target);
    expect(answer.text).toContain('not_enough_donor_balance');
    expect(stack.simulator.requests.some((r) => r.operation === 'listGasDistributions' && r.query.cursor)).toBe(true);
  });

  it('refuses an unknown status without calling the API', async () => {
    const answer = await ask(stack, 'gas broken');
    expect(answer.text).toContain('"broken" is not a gas status');
    expect(stack.simulator.requestCount()).toBe(0);
  });
});

describe('Share in channel', () => {
  it('posts a fresh copy of a withdrawal for everyone, naming who shared it, without another share button', async () => {
    const id = stack.simulator.ids.withdrawals.success[0]!;
    const mine = await ask(stack, `withdrawal ${id}`, { userId: 'U0SHARER' });
    // Posted with chat.postMessage, not through the response_url: a reply to an ephemeral message may stay private.
    const shared = await share(stack, mine, { userId: 'U0SHARER' });
    expect(shared.result.responses()).toEqual([]);
    expect(shared.text).toContain('shared by <@U0SHARER>');
    expect(shared.text).toContain(id);
    expect(shared.buttons).toEqual([]);
  });
});
