// The contract between the HTTP layer and the operation handlers.
import type { HandlerResult } from '../responses.js';
import type { OperationName, Permission } from '../types.js';
import type { SimState } from '../world.js';

/** What a handler sees: the state, the merchant of the API key, the query and the parsed JSON body. */
export interface OperationContext {
  state: SimState;
  merchantId: string;
  query: Record<string, string>;
  body: unknown;
}

/** One route of the API. */
export interface OperationRoute {
  operation: OperationName;
  method: 'GET' | 'POST';
  path: string;
  /** Permission the key must carry (403 otherwise). */
  permission?: Permission;
  /** 50 requests per second per API key. */
  rateLimited?: boolean;
  handler: (context: OperationContext) => HandlerResult;
}
