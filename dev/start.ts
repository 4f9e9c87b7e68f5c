/**
 * `npm start`: with no configuration at all (a fresh clone), or with `--local-workspace` (`npm run demo`), the local
 * workspace; otherwise the product's own entry point, src/main.ts, exactly as a deployment runs it. The product never
 * imports this tree: the demo tools stay out of what a deployment loads.
 */
import { hasNoConfiguration } from './unconfigured.js';

if (process.argv.includes('--local-workspace') || hasNoConfiguration()) {
  const { runLocalWorkspace } = await import('./workspace/main.js');
  await runLocalWorkspace();
} else {
  await import('../src/main.js');
}
