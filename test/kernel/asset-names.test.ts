import { describe, expect, it } from 'vitest';
import { looksLikeAssetReference, readsLikeCurrency, resolveAsset } from '../../src/kernel/asset-names.js';

const asset = (id: string, symbol: string, network: string, title = network) => ({
  id,
  crypto: { symbol },
  network: { symbol: network, title },
});
const ASSETS = [asset('a1', 'USDT', 'BSC', 'BNB Smart Chain'), asset('a2', 'USDT', 'ETH', 'Ethereum')];

describe('readsLikeCurrency: a word after an amount that must never become the first word of a title', () => {
  it.each([
    ['BTC', true],
    ['ETH', true],
    ['USDT', true],
    ['1INCH', true],
    ['BTC@BITCOIN', true],
    ['usdt@tron', true],
    ['btc', true],
    ['Bitcoin', true],
    ['ether', true],
    ['Tether', true],
    ['EUR', true],
    ['eur', true],
    ['euros', true],
    ['€', true],
    ['€uro', true],
    ['₿', true],
    ['tokens', true],
    ['bitcoin,', true],
    ['VIP', true], // a false alarm costs a refusal that shows the $ form, never money
  ])('%s → %s', (word, expected) => {
    expect(readsLikeCurrency(word)).toBe(expected);
  });

  it.each([
    ['Consulting', false],
    ['Pro', false],
    ['plan', false],
    ['Q4', false], // one capital: a quarter, not a ticker
    ['R&D', false],
    ['link', false], // also a ticker, but a common word typed in lower case
    ['dot', false],
    ['2h', false],
    ['Audit', false],
  ])('%s → %s', (word, expected) => {
    expect(readsLikeCurrency(word)).toBe(expected);
  });
});

describe('looksLikeAssetReference and resolveAsset (the merchant has two USDT)', () => {
  it('a held symbol, an id or a reference with a network names an asset', () => {
    expect(looksLikeAssetReference(ASSETS, 'usdt')).toBe(true);
    expect(looksLikeAssetReference(ASSETS, 'a2')).toBe(true);
    expect(looksLikeAssetReference(ASSETS, 'BTC@BITCOIN')).toBe(true);
    expect(looksLikeAssetReference(ASSETS, 'BTC')).toBe(false);
  });

  it('a symbol on two networks is refused with both, never one of them', () => {
    const resolution = resolveAsset(ASSETS, 'USDT');
    expect(resolution).toMatchObject({ ok: false, problem: 'ambiguous' });
    expect(resolution.ok ? [] : resolution.candidates.map((a) => a.id)).toEqual(['a1', 'a2']);
    expect(resolveAsset(ASSETS, 'usdt@ethereum')).toMatchObject({ ok: true, asset: { id: 'a2' } });
  });
});
