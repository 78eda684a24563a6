import type { ComponentType } from "react";

/**
 * The /settings page is a list of cards in `order`. Other features add their own cards (the
 * team and members cards come from the teams feature) with registerSettingsCard, from their
 * own files; cards with the same id replace each other, so registering twice is harmless.
 */
export interface SettingsCard {
  id: string;
  order: number;
  Component: ComponentType;
}

const cards = new Map<string, SettingsCard>();

export function registerSettingsCard(card: SettingsCard): void {
  cards.set(card.id, card);
}

export function settingsCards(): SettingsCard[] {
  return [...cards.values()].sort((a, b) => a.order - b.order);
}

/** The order of the specs' cards: profile, team, members, notifications, 2FA, username, password, (single sign-on), danger. */
export const SETTINGS_ORDER = { profile: 10, team: 20, members: 30, notifications: 40, twoFactor: 50, username: 60, password: 70, sso: 80, danger: 90 } as const;
