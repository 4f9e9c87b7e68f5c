/**
 * Who may use the bot at all (TREASURY_USERS), as a pure function beside the swap approval rules in
 * approval.ts. The listeners ask it before anything else; nothing is called for someone it turns away.
 */

/** Whether `userId` may use `/treasury` and its buttons: an empty TREASURY_USERS lets everyone in. */
export function mayUseBot(treasuryUsers: readonly string[], userId: string): boolean {
  return treasuryUsers.length === 0 || treasuryUsers.includes(userId);
}

/** The polite refusal for people outside TREASURY_USERS. */
export const NOT_A_TREASURY_USER =
  'Sorry, this bot is limited to the treasury team. Ask an admin to add you to TREASURY_USERS if you need it.';
