// The bare Bolt app of the ack benchmark: same Bolt, HTTPReceiver, one /treasury handler that only acks.
import bolt from '@slack/bolt';

const app = new bolt.App({
  token: process.env.SLACK_BOT_TOKEN,
  signingSecret: process.env.SLACK_SIGNING_SECRET,
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL },
  logLevel: bolt.LogLevel.ERROR,
});
app.command('/treasury', async ({ ack }) => {
  await ack();
});
const server = await app.start({ port: 0, host: '127.0.0.1' });
process.stderr.write(`listening for Slack on port ${server.address().port}\n`);
process.on('SIGTERM', () => app.stop().then(() => process.exit(0)));
