import type { HomeTab } from './service.js';

/** Republishes the person's Home tab after they acted (see HomeTab.refreshHome), in the background. */
export function refreshHomeAfterAct(
  deps: {
    home?: Pick<HomeTab, 'refreshHome'>;
    background: { run(name: string, work: () => Promise<void>): void };
  },
  userId: string,
): void {
  const home = deps.home;
  if (home) deps.background.run('home tab after an act', () => home.refreshHome(userId));
}
