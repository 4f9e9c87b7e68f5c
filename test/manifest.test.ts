import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { TREASURY_COMMAND } from '../src/listeners/index.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const schema = JSON.parse(
  readFileSync(new URL('./fixtures/slack/manifest.schema.1.0.0.json', import.meta.url), 'utf8'),
);
const readManifest = (name: string) =>
  JSON.parse(readFileSync(new URL(`../manifests/${name}`, import.meta.url), 'utf8'));

function validator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

describe.each(['manifest.json', 'manifest.http.json'])('%s', (file) => {
  const manifest = readManifest(file);

  it("is valid against Slack's manifest schema", () => {
    const validate = validator();
    const valid = validate(manifest);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('declares /treasury with a usage hint, interactivity, and only the scopes the bot needs', () => {
    const [command] = manifest.features.slash_commands;
    expect(command.command).toBe(TREASURY_COMMAND);
    expect(command.usage_hint).toMatch(/help/);
    expect(manifest.settings.interactivity.is_enabled).toBe(true);
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([
      'channels:history',
      'channels:join',
      'chat:write',
      'chat:write.public',
      'commands',
      'files:write',
      'groups:history',
      'im:history',
      'im:write',
      'usergroups:read',
    ]);
  });
});

describe('the two variants', () => {
  it('Socket Mode needs no public URL; HTTP mode points both request URLs at /slack/events', () => {
    const socket = readManifest('manifest.json');
    const http = readManifest('manifest.http.json');
    expect(socket.settings.socket_mode_enabled).toBe(true);
    expect(socket.features.slash_commands[0].url).toBeUndefined();
    expect(http.settings.socket_mode_enabled).toBe(false);
    expect(http.features.slash_commands[0].url).toMatch(/^https:\/\/.+\/slack\/events$/);
    expect(http.settings.interactivity.request_url).toBe(http.features.slash_commands[0].url);
  });

  it('both enable the Home tab and subscribe to app_home_opened; HTTP mode sends events to /slack/events', () => {
    for (const manifest of [readManifest('manifest.json'), readManifest('manifest.http.json')]) {
      expect(manifest.features.app_home).toMatchObject({ home_tab_enabled: true, messages_tab_enabled: true });
      expect(manifest.settings.event_subscriptions.bot_events).toEqual(['app_home_opened']);
    }
    const socket = readManifest('manifest.json');
    const http = readManifest('manifest.http.json');
    // Socket Mode delivers events over its connection; HTTP mode to the same endpoint as commands and clicks.
    expect(socket.settings.event_subscriptions.request_url).toBeUndefined();
    expect(http.settings.event_subscriptions.request_url).toBe(http.features.slash_commands[0].url);
  });

  it('both declare the global shortcut "Treasury: new invoice" (callback new_invoice), which needs only `commands`', () => {
    for (const manifest of [readManifest('manifest.json'), readManifest('manifest.http.json')]) {
      expect(manifest.features.shortcuts).toEqual([
        expect.objectContaining({ name: 'Treasury: new invoice', type: 'global', callback_id: 'new_invoice' }),
      ]);
      expect(manifest.oauth_config.scopes.bot).toContain('commands');
    }
  });

  it('the schema rejects a broken manifest (the check is real)', () => {
    const validate = validator();
    const broken = readManifest('manifest.json');
    broken.features.slash_commands[0].command = 'treasury without slash';
    broken.oauth_config.scopes.bot = 'commands';
    expect(validate(broken)).toBe(false);
  });
});
