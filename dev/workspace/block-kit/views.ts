// Views: modals (views.open, views.update) and Home tabs (views.publish).
import { validateBlocks } from './blocks.js';
import { type BlockKitProblem, HOME_LIMITS, MODAL_LIMITS } from './limits.js';
import { checkArray, checkString, checkText, isRecord, type Problems } from './primitives.js';

/**
 * Every problem `views.open` / `views.update` would report for a modal view: type, title/submit/close
 * (plain_text ≤ 24), ≤ 100 blocks checked as blocks are, private_metadata ≤ 3,000, callback_id ≤ 255, and a
 * submit button whenever the view has inputs. Pointers start at `/view`.
 */
export function validateModalView(view: unknown): BlockKitProblem[] {
  const problems: Problems = [];
  const root = '/view';
  if (!isRecord(view)) return [{ pointer: root, message: 'must be an object' }];
  if (view.type !== 'modal')
    problems.push({ pointer: `${root}/type`, message: `unsupported type: ${String(view.type)}` });
  if (view.title === undefined) problems.push({ pointer: root, message: 'missing required field: title' });
  else checkText(view.title, `${root}/title`, { max: MODAL_LIMITS.title, plainOnly: true }, problems);
  for (const button of ['submit', 'close'] as const) {
    if (view[button] !== undefined) {
      checkText(view[button], `${root}/${button}`, { max: MODAL_LIMITS[button], plainOnly: true }, problems);
    }
  }
  const blocks = checkArray(view.blocks, `${root}/blocks`, Number.POSITIVE_INFINITY, problems, 0);
  if (blocks) {
    problems.push(...validateBlocks(blocks, { maxBlocks: MODAL_LIMITS.blocks, pointer: `${root}/blocks` }));
    const hasInput = blocks.some((block) => isRecord(block) && block.type === 'input');
    if (hasInput && view.submit === undefined) {
      problems.push({ pointer: root, message: 'submit is required when the view has input blocks' });
    }
  }
  if (view.private_metadata !== undefined) {
    checkString(view.private_metadata, `${root}/private_metadata`, MODAL_LIMITS.privateMetadata, problems);
  }
  if (view.callback_id !== undefined) {
    checkString(view.callback_id, `${root}/callback_id`, MODAL_LIMITS.callbackId, problems);
  }
  return problems;
}

/**
 * Every problem `views.publish` would report for a Home tab view: type `home`, ≤ 100 blocks checked as blocks
 * are, private_metadata ≤ 3,000, callback_id and external_id ≤ 255. A Home tab has no title, submit or close (those
 * are a modal's), so none is required. Pointers start at `/view`. The size (`view_too_large`) is the caller's.
 */
export function validateHomeView(view: unknown): BlockKitProblem[] {
  const problems: Problems = [];
  const root = '/view';
  if (!isRecord(view)) return [{ pointer: root, message: 'must be an object' }];
  if (view.type !== 'home')
    problems.push({ pointer: `${root}/type`, message: `unsupported type: ${String(view.type)}` });
  const blocks = checkArray(view.blocks, `${root}/blocks`, Number.POSITIVE_INFINITY, problems, 0);
  if (blocks) problems.push(...validateBlocks(blocks, { maxBlocks: HOME_LIMITS.blocks, pointer: `${root}/blocks` }));
  if (view.private_metadata !== undefined)
    checkString(view.private_metadata, `${root}/private_metadata`, HOME_LIMITS.privateMetadata, problems);
  if (view.callback_id !== undefined)
    checkString(view.callback_id, `${root}/callback_id`, HOME_LIMITS.callbackId, problems);
  if (view.external_id !== undefined)
    checkString(view.external_id, `${root}/external_id`, HOME_LIMITS.externalId, problems);
  return problems;
}
