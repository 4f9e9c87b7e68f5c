import { randomBytes } from 'node:crypto';
import { invalidField, missingField, missingScope } from './answers.js';
import { removeMessage } from './chat.js';
import { fileTypeOf, pngSize, urlPrivateOf } from './file-bytes.js';
import { botCanSee, conversationKind, isMember } from './membership.js';
import { messageContent, refuseContent } from './messages.js';
import type { SlackState } from './state.js';
import type { MethodHandler, SlackFile, UploadedFile } from './types.js';
import { asString, isRecord, parseJsonOrUndefined } from './values.js';

// Slack takes files of up to 1 GB.
const MAX_FILE_BYTES = 1024 ** 3;

/**
 * files.getUploadURLExternal and files.completeUploadExternal (the two steps around posting the bytes), and
 * files.delete.
 */
export function filesMethods(state: SlackState): Record<string, MethodHandler> {
  const canWrite = (): boolean => state.options.filesWrite ?? true;
  return {
    /*
     * files.delete (scope files:write; the method's reference): `file` (an id) is required; `file_not_found` for an
     * id the workspace does not have (or an upload never completed), `file_deleted` for one deleted already,
     * `cant_delete_file` for a file the bot did not upload (every file here is the bot's). The file leaves every
     * message that shared it: a share with no text of its own leaves the channel with it.
     */
    'files.delete': (args) => {
      if (!canWrite()) return missingScope('files:write');
      const id = asString(args.file) ?? '';
      if (id === '') return missingField('file');
      const upload = state.uploads.get(id);
      if (upload === undefined || !upload.completed) return { ok: false, error: 'file_not_found' };
      if (upload.deleted === true) return { ok: false, error: 'file_deleted' };
      upload.deleted = true;
      for (const share of upload.shares) {
        const message = state.findMessage(share.channel, share.ts);
        if (message === undefined) continue;
        const left = (message.files ?? []).filter((file) => file.id !== id);
        if (left.length === 0 && (message.text ?? '') === '' && message.blocks === undefined) {
          removeMessage(state, share.channel, share.ts);
          continue;
        }
        message.files = left;
        state.emit({
          type: 'update',
          channel: message.channel,
          ts: message.ts,
          text: message.text,
          blocks: message.blocks,
          attachments: message.attachments,
          files: structuredClone(left),
        });
      }
      state.changed();
      return { ok: true };
    },
    /*
     * files.getUploadURLExternal (scope files:write; the method's reference): `filename` and `length` (bytes, an
     * integer) are required, `alt_txt` at most 1,000 characters (`alt_txt_too_large`); a length of 0 answers
     * `missing_argument`, as the reference says. Answers an upload URL (on this stand-in) and the new file's id.
     */
    'files.getUploadURLExternal': (args) => {
      if (!canWrite()) return missingScope('files:write');
      const filename = asString(args.filename) ?? '';
      if (filename === '') return missingField('filename');
      const lengthArg = asString(args.length);
      if (lengthArg === undefined || lengthArg === '') return missingField('length');
      if (!/^\d+$/.test(lengthArg)) return invalidField('length', 'must be an integer');
      const length = Number(lengthArg);
      if (length === 0) return { ok: false, error: 'missing_argument' };
      // Slack takes files up to 1 GB.
      if (length > MAX_FILE_BYTES) return { ok: false, error: 'file_upload_size_restricted' };
      const altTxt = asString(args.alt_txt);
      if (altTxt !== undefined && [...altTxt].length > 1_000) return { ok: false, error: 'alt_txt_too_large' };
      const id = `F${randomBytes(5).toString('hex').toUpperCase()}`;
      const uploadUrl = `${state.baseUrl}/upload/v1/${id}/${randomBytes(12).toString('hex')}`;
      state.uploads.set(id, {
        id,
        filename,
        length,
        altTxt,
        uploadUrl,
        bytes: undefined,
        completed: false,
        title: undefined,
        shares: [],
      });
      state.changed();
      return { ok: true, upload_url: uploadUrl, file_id: id };
    },
    /*
     * files.completeUploadExternal (scope files:write; the method's reference): `files` (required) names uploads by
     * id with optional titles; each must have had its bytes posted, and "this method can only be called once" (else
     * `file_not_found`: "could not find the file from the upload ticket"). Without `channel_id` (or `channels`) the
     * files stay private. Sharing needs the bot in the channel: unlike chat.postMessage, chat:write.public does not
     * cover it (`not_in_channel`). `thread_ts` names the parent message of a thread ("never use a reply's ts"),
     * with one channel. One message per channel carries the files, `initial_comment` as its text.
     */
    'files.completeUploadExternal': (args) => {
      if (!canWrite()) return missingScope('files:write');
      if (args.files === undefined || args.files === '') return missingField('files');
      const listed: unknown = typeof args.files === 'string' ? parseJsonOrUndefined(args.files) : args.files;
      const wanted = Array.isArray(listed) ? listed : undefined;
      if (
        wanted === undefined ||
        wanted.length === 0 ||
        !wanted.every((file) => isRecord(file) && typeof file.id === 'string' && file.id !== '')
      )
        return invalidField('files', 'must be a list of objects with an id');
      const channelId = asString(args.channel_id);
      const channels = [
        ...(channelId !== undefined && channelId !== '' ? [channelId] : []),
        ...(asString(args.channels) ?? '')
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
      ];
      if (channels.length > 100) return { ok: false, error: 'channels_limit_exceeded' };
      // Slack's pattern is ^[CGDZ][A-Z0-9]{8,}$; the length is not held here (the workspace's ids are short).
      const badChannel = channels.find((id) => !/^[CGDZ][A-Z0-9]+$/.test(id));
      if (badChannel !== undefined)
        return invalidField(
          channelId === badChannel ? 'channel_id' : 'channels',
          'input must match regex pattern: ^[CGDZ][A-Z0-9]{8,}$',
        );
      const threadTs = asString(args.thread_ts);
      if (threadTs !== undefined) {
        if (!/^\d+\.\d+$/.test(threadTs)) return invalidField('thread_ts', 'must be a message ts');
        if (channels.length !== 1) return invalidField('thread_ts', 'needs exactly one channel');
      }
      const files: UploadedFile[] = [];
      for (const file of wanted as { id: string; title?: unknown }[]) {
        const upload = state.uploads.get(file.id);
        if (upload === undefined || upload.bytes === undefined || upload.completed)
          return { ok: false, error: 'file_not_found' };
        files.push(upload);
      }
      for (const channel of channels) {
        if (!botCanSee(state, channel)) return { ok: false, error: 'channel_not_found' };
        if (!isMember(state, channel, state.botUserId)) return { ok: false, error: 'not_in_channel' };
        if (state.conversations.get(channel)?.archived === true)
          return { ok: false, error: 'posting_to_channel_denied' };
        if (threadTs !== undefined) {
          const parent = state.findMessage(channel, threadTs);
          if (parent === undefined || (parent.threadTs !== undefined && parent.threadTs !== parent.ts))
            return invalidField('thread_ts', "must be the ts of a thread's parent message in the channel");
        }
      }
      const initialComment = asString(args.initial_comment);
      // "If the initial_comment field is provided, the blocks field is ignored."
      const content = messageContent(initialComment === undefined ? { blocks: args.blocks } : { text: initialComment });
      if (content.blocks !== undefined) {
        const refused = refuseContent(state, 'files.completeUploadExternal', { blocks: content.blocks });
        if (refused !== undefined) return refused;
      }
      for (const [i, upload] of files.entries()) {
        const title = asString((wanted[i] as { title?: unknown }).title);
        upload.completed = true;
        upload.title = title === undefined || title === '' ? upload.filename : title;
      }
      const shared = files.map((upload) => fileObject(state, upload));
      for (const channel of channels) {
        const ts = state.nextTs();
        const at = state.clock();
        const text = content.text ?? '';
        state.stored.push({
          channel,
          ts,
          threadTs,
          text,
          blocks: content.blocks,
          attachments: undefined,
          metadata: undefined,
          files: structuredClone(shared),
          history: [{ text, blocks: content.blocks, attachments: undefined, at }],
        });
        for (const upload of files) upload.shares.push({ channel, ts, threadTs });
        state.emit({
          type: 'message',
          channel,
          ts,
          threadTs,
          text,
          blocks: content.blocks,
          attachments: undefined,
          files: structuredClone(shared),
        });
      }
      state.changed();
      return { ok: true, files: shared };
    },
  };
}

/** A file as Slack describes it in a message's `files` and in files.completeUploadExternal's answer. */
function fileObject(state: SlackState, upload: UploadedFile): SlackFile {
  const { botUserId, teamId, teamDomain } = state;
  const type = fileTypeOf(upload.filename);
  const size = upload.bytes?.length ?? upload.length;
  const dimensions = type.filetype === 'png' && upload.bytes !== undefined ? pngSize(upload.bytes) : undefined;
  const created = Math.floor(state.clock() / 1000);
  return {
    id: upload.id,
    created,
    timestamp: created,
    name: upload.filename,
    title: upload.title ?? upload.filename,
    mimetype: type.mimetype,
    filetype: type.filetype,
    pretty_type: type.prettyType,
    user: botUserId,
    user_team: teamId,
    editable: false,
    size,
    mode: 'hosted',
    is_external: false,
    external_type: '',
    is_public: upload.shares.some((share) => conversationKind(state, share.channel) === 'public'),
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: urlPrivateOf(state, upload),
    url_private_download: `${urlPrivateOf(state, upload)}?download=1`,
    permalink: `https://${teamDomain}.slack.com/files/${botUserId}/${upload.id}/${encodeURIComponent(upload.filename)}`,
    ...(upload.altTxt !== undefined ? { alt_txt: upload.altTxt } : {}),
    ...(dimensions !== undefined ? { original_w: dimensions.width, original_h: dimensions.height } : {}),
  };
}
