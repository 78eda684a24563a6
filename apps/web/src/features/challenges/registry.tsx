import type { ComponentType } from "react";
import type { ChallengeDraft } from "../authoring/draft.ts";
import type { CategoryView, ChallengeView } from "./types.ts";

/**
 * Renderers by type name. Built-in layouts and flag inputs register themselves here; a plugin adds
 * a type by calling the same functions. A type without a renderer shows the missing-renderer
 * message ('Did you forget to install a plugin?').
 */

export interface CategoryRendererProps {
  category: CategoryView;
  /** Present in staff edit mode (#edit). */
  editing?: CategoryEditing;
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

/** A challenge type's own fields in the staff editor (e.g. a code challenge's language). */
export interface EditorRendererProps {
  draft: ChallengeDraft;
  onChange(patch: Partial<ChallengeDraft>): void;
}

export interface TileMove {
  id: number;
  x: number;
  y: number;
}

/** Staff edit mode of a category: locked challenges shown or not, and tile moves. */
export interface CategoryEditing {
  showLocked: boolean;
  /** Moves tiles of the campaign layout (one, or two when they swap cells). */
  onMove(moves: TileMove[]): void;
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
