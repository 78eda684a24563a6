import type { ComponentType } from "react";
import { createRegistry } from "./registry.ts";

/**
 * The plugin points besides the challenge screens' (category, challenge and editor types live in
 * features/challenges/registry.tsx): flag types, popups, pages and login providers.
 */

/** A flag type's fields in the challenge editor; they edit the flag metadata object. */
export interface FlagTypeFieldsProps {
  metadata: Record<string, unknown>;
  onChange(patch: Record<string, unknown>): void;
}
export interface FlagTypeEntry {
  /** Fields for the metadata; without them staff edit the metadata's JSON only. */
  Fields?: ComponentType<FlagTypeFieldsProps>;
}
export const flagTypes = createRegistry<FlagTypeEntry>();

/** A popup shown as a notification: a title and a body, or a plugin's own content. */
export interface PopupProps {
  title?: string;
  body?: string;
  /** Whatever the popup type needs (e.g. a medal's name). */
  data?: Record<string, unknown>;
}
export const popups = createRegistry<ComponentType<PopupProps>>();

/** A page a plugin serves at its own path (without the leading slash). */
export interface PluginPage {
  title: string;
  component: ComponentType;
}
export const pages = createRegistry<PluginPage>();

/** A login provider (config login_provider): the sign-in screen it shows. */
export const loginProviders = createRegistry<ComponentType>();
