import { deferred } from "../../lib/deferred.tsx";
import { registerChallengeType, registerEditorType } from "../../features/challenges/registry.tsx";
import { choicesOf } from "./choices.ts";

/**
 * A bundled example plugin: the "multipleChoice" challenge type. Players pick one answer from
 * challenge_metadata.choices; the chosen text is submitted as the flag (a plaintext flag set to the
 * right answer). Staff edit the choices in the challenge editor. Nothing in the core knows it.
 * Its components load with the first challenge or editor that draws them (not with the app).
 */

const ChoiceInput = deferred("plugins/examples/MultipleChoiceFields", () => import("./MultipleChoiceFields.tsx").then((m) => m.ChoiceInput), null);
const ChoicesEditor = deferred("plugins/examples/MultipleChoiceFields", () => import("./MultipleChoiceFields.tsx").then((m) => m.ChoicesEditor), null);

registerChallengeType("multipleChoice", {
  FlagInput: ChoiceInput,
  canSubmit: (challenge, value) => typeof value === "string" && choicesOf(challenge.challenge_metadata).includes(value),
});
registerEditorType("multipleChoice", ChoicesEditor);
