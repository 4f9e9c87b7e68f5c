/**
 * `npm run demo` (and `npm start` with no configuration at all): the local workspace, with one clear banner.
 * `--socket-mode` runs the bot in Socket Mode instead of HTTP mode. Ctrl-C stops everything.
 */
import { type LocalWorkspace, startLocalWorkspace } from './index.js';

export async function runLocalWorkspace(
  env: NodeJS.ProcessEnv = process.env,
  argv: readonly string[] = process.argv,
): Promise<void> {
  const socketMode = argv.includes('--socket-mode');
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`Cannot start the local workspace: PORT must be a port number, not "${env.PORT}".\n`);
    process.exit(1);
  }
  const started = performance.now();
  let workspace: LocalWorkspace;
  try {
    workspace = await startLocalWorkspace({ port, socketMode });
  } catch (error) {
    process.stderr.write(
      `Cannot start the local workspace: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
  const line = '─'.repeat(78);
  process.stdout.write(
    [
      line,
      ' Treasury bot: LOCAL WORKSPACE (no configuration found, so nothing real is touched)',
      '',
      ` Open ${workspace.url} in your browser.`,
      '',
      ' Running on this machine only: a payment API simulator with a sample merchant, a stand-in for',
      socketMode
        ? ' Slack, and the real bot wired to both in Socket Mode. Type /treasury help in #treasury to begin.'
        : ' Slack, and the real bot wired to both. Type /treasury help in #treasury to begin.',
      ' To run against real Slack and your payment account, set the variables listed in .env.example.',
      ` Ready in ${((performance.now() - started) / 1000).toFixed(1)} s. Ctrl-C stops it.`,
      line,
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the local workspace…\n`);
    workspace.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
