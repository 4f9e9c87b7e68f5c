// Standalone simulator for the local demo: `npm run simulator` (port from --port, PORT_SIMULATOR, or 4010).
import { startSimulator } from './index.js';

/** Reads the port from `--port N` / `--port=N`, then PORT_SIMULATOR, then 4010. */
function readPort(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): number {
  let raw: string | undefined;
  argv.forEach((arg, index) => {
    if (arg === '--port') raw = argv[index + 1];
    else if (arg.startsWith('--port=')) raw = arg.slice('--port='.length);
  });
  raw ??= env.PORT_SIMULATOR ?? '4010';
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`invalid simulator port: ${raw}`);
  return port;
}

async function main(): Promise<void> {
  const simulator = await startSimulator({
    port: readPort(),
    host: process.env.HOST_SIMULATOR ?? '127.0.0.1',
    quiet: false,
  });
  const { full, noPermissions, otherMerchant } = simulator.keys;
  console.log(
    `payments simulator listening on ${simulator.url} apiKey=${full} (noPermissions=${noPermissions}, otherMerchant=${otherMerchant})`,
  );
  const stop = (signal: string): void => {
    console.log(`payments simulator: ${signal}, shutting down`);
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`payments simulator failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
