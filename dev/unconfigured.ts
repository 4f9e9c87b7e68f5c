/**
 * Whether `npm start` opens the local workspace: only on a machine with no configuration at all. The product
 * (src/) does not know the demo exists; what counts as a deployment's variable is read from its declaration.
 */
import { existsSync } from 'node:fs';
import { isProduction, VARIABLES, type VariableName } from '../src/config.js';

/** The variables only a real deployment sets (not `local`): present at all, even empty, they mean "a deployment". */
export const DEPLOYMENT_VARIABLES = (Object.keys(VARIABLES) as VariableName[]).filter(
  (name) => !('local' in VARIABLES[name]),
);

/**
 * True when `npm start` should open the local workspace instead of connecting: none of the deployment
 * variables present (even empty), no `.env` file, and NODE_ENV not production (in any case). Anything else
 * keeps the normal start-up, whose configuration errors stay errors: a deployment with a blank or forgotten
 * variable must never quietly become a demo.
 */
export function hasNoConfiguration(env: NodeJS.ProcessEnv = process.env, dotEnvPath = '.env'): boolean {
  if (isProduction(env) || existsSync(dotEnvPath)) return false;
  return DEPLOYMENT_VARIABLES.every((name) => env[name] === undefined);
}
