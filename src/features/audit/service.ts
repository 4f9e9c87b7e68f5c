/**
 * `/treasury audit <period>`: a treasury admin gets the audit trail of the period as a CSV file in their
 * direct messages with the bot. The command answers at once; the file is written in the background to a temporary
 * file (Slack's upload flow needs its length before the bytes), uploaded into the DM, and the temporary file removed.
 * Anything that goes wrong is told to the requester in plain words (the details go to the log).
 */

import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SlackMessage } from '../../blocks/common.js';
import { UserFacingError } from '../../kernel/errors.js';
import { StoreError } from '../../kernel/store-error.js';
import { errorFields, type Logger } from '../../logger.js';
import { describeUploadFailure, mayHaveHappened, type SlackGateway } from '../../slack/index.js';
import { auditAccepted, auditFailed, auditFileComment, auditRefused, auditUnconfirmed } from './blocks.js';
import { writeAuditCsv } from './csv.js';
import { type AuditSources, auditRows } from './rows.js';

/** What the audit export needs. */
export interface AuditExportDeps {
  store: AuditSources;
  slack: Pick<SlackGateway, 'openDirectMessage' | 'uploadFile'>;
  now: () => Date;
  logger: Logger;
  /** TREASURY_ADMINS (people and members of listed groups): the threshold service's check. */
  isAdmin(userId: string): Promise<boolean>;
  /** Where the temporary file is written (default: the system's temporary directory). */
  tmpDir?: string;
}

/** A request for the file: the answer to give now, and the work that sends the file (none when refused). */
export interface AuditRequestOutcome {
  reply: SlackMessage;
  send?: () => Promise<void>;
}

export interface AuditExport {
  /**
   * `/treasury audit <period>` by `userId`: refused plainly for anyone but a treasury admin; otherwise `send` writes
   * and uploads the file, and tells the requester through `tell` when it could not.
   */
  request(
    userId: string,
    period: { ms: number; text: string },
    tell: (message: SlackMessage) => Promise<void>,
  ): Promise<AuditRequestOutcome>;
}

/** The file's name: the period's first and last day, e.g. `treasury-audit-2026-10-25-to-2026-11-24.csv`. */
function fileName(since: Date, until: Date): string {
  return `treasury-audit-${since.toISOString().slice(0, 10)}-to-${until.toISOString().slice(0, 10)}.csv`;
}

/** Why the file could not be sent, in plain words. */
function describeFailure(step: 'read' | 'dm' | 'upload', error: unknown): string {
  if (step === 'read')
    return error instanceof StoreError || error instanceof UserFacingError
      ? 'the bot could not read its records'
      : 'the file could not be written';
  if (step === 'dm') return `the bot could not open a direct message with you (${describeUploadFailure(error)})`;
  return describeUploadFailure(error);
}

/** The `/treasury audit` feature over the store and the Slack gateway. */
export function createAuditExport(deps: AuditExportDeps): AuditExport {
  async function send(userId: string, period: { ms: number; text: string }, tell: (m: SlackMessage) => Promise<void>) {
    const until = deps.now();
    const since = new Date(until.getTime() - period.ms);
    const started = Date.now();
    let step: 'read' | 'dm' | 'upload' = 'read';
    let dir: string | undefined;
    try {
      dir = await mkdtemp(join(deps.tmpDir ?? tmpdir(), 'treasury-audit-'));
      const path = join(dir, fileName(since, until));
      const rows = await writeAuditCsv(auditRows(deps.store, { since, until }), createWriteStream(path));
      const { size } = await stat(path);
      step = 'dm';
      const channel = await deps.slack.openDirectMessage(userId);
      step = 'upload';
      await deps.slack.uploadFile({
        channel,
        filename: fileName(since, until),
        title: `Treasury audit trail, last ${period.text}`,
        bytes: { path, length: size },
        initialComment: auditFileComment({ period: period.text, since, until, rows }),
      });
      deps.logger.info('audit file sent', { userId, period: period.text, rows, bytes: size, ms: Date.now() - started });
    } catch (error) {
      if (step === 'upload' && mayHaveHappened(error)) {
        // Completing the upload is what shares the file, and Slack may have done it before its answer was lost: a
        // "try again" here would put a second copy in the DM.
        deps.logger.warn('Slack did not confirm the audit file was shared; it may be in the DM', {
          userId,
          error: errorFields(error),
        });
        await tell(auditUnconfirmed());
        return;
      }
      deps.logger.error('the audit file could not be sent', { userId, step, error: errorFields(error) });
      await tell(auditFailed(describeFailure(step, error)));
    } finally {
      if (dir !== undefined)
        await rm(dir, { recursive: true, force: true }).catch((error: unknown) =>
          deps.logger.warn('could not remove the temporary audit file', { dir, error: errorFields(error) }),
        );
    }
  }

  return {
    async request(userId, period, tell) {
      if (!(await deps.isAdmin(userId))) {
        deps.logger.info('audit export refused: not an admin', { userId });
        return { reply: auditRefused() };
      }
      const since = new Date(deps.now().getTime() - period.ms);
      return { reply: auditAccepted(period.text, since), send: () => send(userId, period, tell) };
    },
  };
}
