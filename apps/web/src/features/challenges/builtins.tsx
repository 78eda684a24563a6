import { Loader } from "@mantine/core";
import { lazy, Suspense } from "react";
import { flagFormatMatches } from "@flagship/shared";
import { deferred } from "../../lib/deferred.tsx";
import type { ChallengeView } from "./types.ts";
import { type FlagInputProps, registerCategoryType, registerChallengeType, registerEditorType } from "./registry.tsx";

// Layouts and the staff's type editors load with the page that draws them.
const JeopardyLayout = deferred("features/challenges/JeopardyLayout", () => import("./JeopardyLayout.tsx").then((m) => m.JeopardyLayout));
const CampaignGrid = deferred("features/challenges/CampaignGrid", () => import("./CampaignGrid.tsx").then((m) => m.CampaignGrid));
const NoExtraFields = deferred("features/authoring/TypeEditors", () => import("../authoring/TypeEditors.tsx").then((m) => m.NoExtraFields));
const CodeEditorFields = deferred("features/authoring/TypeEditors", () => import("../authoring/TypeEditors.tsx").then((m) => m.CodeEditorFields));
const MapEditorFields = deferred("features/authoring/TypeEditors", () => import("../authoring/TypeEditors.tsx").then((m) => m.MapEditorFields));

// The flag inputs load with the challenge that draws them.
const DefaultFlagInput = deferred("features/challenges/FlagInputs", () => import("./FlagInputs.tsx").then((m) => m.DefaultFlagInput), null);
const FreeformInput = deferred("features/challenges/FlagInputs", () => import("./FlagInputs.tsx").then((m) => m.FreeformInput), null);
const LongTextInput = deferred("features/challenges/LongTextInput", () => import("./LongTextInput.tsx").then((m) => m.LongTextInput), null);

/** Text flags may be submitted once they match the challenge's format (flag_regex or `<prefix>{...}`). */
const textSubmittable = (challenge: ChallengeView, value: string | [number, number] | null, prefix: string) =>
  typeof value === "string" &&
  flagFormatMatches({ challengeType: challenge.challenge_type, challengeMetadata: challenge.challenge_metadata, flagPrefix: prefix }, value);

// The code editor and the map are large: loaded only when a challenge needs them.
const CodeFlagInput = lazy(() => import("./CodeFlagInput.tsx"));
const MapFlagInput = lazy(() => import("./MapFlagInput.tsx"));

function LazyCode(props: FlagInputProps) {
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <CodeFlagInput {...props} />
    </Suspense>
  );
}

function LazyMap(props: FlagInputProps) {
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <MapFlagInput {...props} />
    </Suspense>
  );
}

registerCategoryType("jeopardy", JeopardyLayout);
registerCategoryType("campaign", CampaignGrid);
registerChallengeType("default", { FlagInput: DefaultFlagInput, canSubmit: textSubmittable });
registerChallengeType("freeform", { FlagInput: FreeformInput, canSubmit: textSubmittable });
registerChallengeType("longText", { FlagInput: LongTextInput, canSubmit: textSubmittable });
registerChallengeType("code", { FlagInput: LazyCode, canSubmit: (_c, value) => typeof value === "string" && value.trim() !== "" });
registerChallengeType("map", { FlagInput: LazyMap, canSubmit: (_c, value) => Array.isArray(value) });
registerEditorType("default", NoExtraFields);
registerEditorType("freeform", NoExtraFields);
registerEditorType("longText", NoExtraFields);
registerEditorType("code", CodeEditorFields);
registerEditorType("map", MapEditorFields);
