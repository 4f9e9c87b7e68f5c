import { readFileSync } from 'node:fs';

/** The node flags `npm start` runs the bot with (package.json "config.nodeFlags"): tests start it as deployed. */
export const NODE_FLAGS: string[] = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { config: { nodeFlags: string } }
).config.nodeFlags
  .split(/\s+/)
  .filter(Boolean);
