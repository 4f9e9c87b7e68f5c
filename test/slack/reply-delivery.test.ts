// A person's answer is never lost to a failing response_url: a transient failure is retried (within the url's
// five uses), and when the url keeps failing the answer arrives as a private message instead.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../support/rig/local-stack.js';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startLocalStack();
});
afterAll(() => stack.close());
beforeEach(() => stack.slack.reset());

describe('replies through a failing response_url', () => {
  it('one 500 from the response_url: the reply is posted again and arrives once', async () => {
    stack.slack.failNext('response_url', { status: 500 });
    const result = await stack.driver.command('balances');
    const [reply] = await result.waitForResponses(1);
    expect(JSON.stringify(reply?.blocks)).toContain('Balances');
    expect(stack.slack.callsOf('chat.postEphemeral')).toHaveLength(0);
  });

  it('a response_url that keeps failing: the answer comes as a private message to the person, in the same channel', async () => {
    stack.slack.failNext('response_url', { status: 503 }, 3);
    const result = await stack.driver.command('balances', { userId: 'U0CAROL', channelId: 'C_DESK' });
    const [ephemeral] = await stack.slack.waitForCalls('chat.postEphemeral', 1);
    expect(ephemeral?.args).toMatchObject({ channel: 'C_DESK', user: 'U0CAROL' });
    expect(JSON.stringify(ephemeral?.args.blocks)).toContain('Balances');
    expect(result.responses()).toHaveLength(0);
  });

  it('a used-up response_url (404) is not tried again: the answer goes straight to a private message', async () => {
    // Only the first post fails: a second try on the url would succeed, so a reply there means a retry.
    stack.slack.failNext('response_url', { status: 404 }, 1);
    const result = await stack.driver.command('help');
    await stack.slack.waitForCalls('chat.postEphemeral', 1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(result.responses()).toHaveLength(0);
    expect(stack.slack.callsOf('chat.postEphemeral')).toHaveLength(1);
  });
});
