import type { ComponentType } from "react";
import type { CategoryView, ChallengeView } from "./types.ts";

/**
 * Renderers by type name. Built-in layouts and flag inputs register themselves here; a plugin adds
 * a type by calling the same functions. A type without a renderer shows the missing-renderer
 * message ('Did you forget to install a plugin?').
 */

export interface CategoryRendererProps {
  category: CategoryView;
}

export interface FlagInputProps {
  challenge: ChallengeView;
  /** The value to submit: text, or `[lat, lon]` for map challenges. */
  value: string | [number, number] | null;
  onChange(value: string | [number, number] | null): void;
  disabled: boolean;
  /** Submits the current value (e.g. Enter in a one-line input). */
  onSubmit(): void;
}

export interface ChallengeTypeRenderer {
  FlagInput: ComponentType<FlagInputProps>;
  /** Whether `value` may be submitted (the submit button stays disabled otherwise). */
  canSubmit(challenge: ChallengeView, value: string | [number, number] | null, flagPrefix: string): boolean;
}

export interface EditorRendererProps {
  challenge: ChallengeView;
}

const categoryTypes = new Map<string, ComponentType<CategoryRendererProps>>();
const challengeTypes = new Map<string, ChallengeTypeRenderer>();
const editorTypes = new Map<string, ComponentType<EditorRendererProps>>();

export function registerCategoryType(name: string, component: ComponentType<CategoryRendererProps>): void {
  categoryTypes.set(name, component);
}
export function registerChallengeType(name: string, renderer: ChallengeTypeRenderer): void {
  challengeTypes.set(name, renderer);
}
export function registerEditorType(name: string, component: ComponentType<EditorRendererProps>): void {
  editorTypes.set(name, component);
}

export const categoryRenderer = (name: string) => categoryTypes.get(name);
export const challengeRenderer = (name: string) => challengeTypes.get(name);
export const editorRenderer = (name: string) => editorTypes.get(name);
export const registeredCategoryTypes = () => [...categoryTypes.keys()];
export const registeredChallengeTypes = () => [...challengeTypes.keys()];
