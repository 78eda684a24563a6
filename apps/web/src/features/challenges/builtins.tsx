import { Loader } from "@mantine/core";
import { lazy, Suspense } from "react";
import { CampaignGrid } from "./CampaignGrid.tsx";
import { defaultType, freeformType, longTextType } from "./FlagInputs.tsx";
import { JeopardyLayout } from "./JeopardyLayout.tsx";
import { CodeEditorFields, MapEditorFields, NoExtraFields } from "../authoring/TypeEditors.tsx";
import { type FlagInputProps, registerCategoryType, registerChallengeType, registerEditorType } from "./registry.tsx";

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
registerChallengeType("default", defaultType);
registerChallengeType("freeform", freeformType);
registerChallengeType("longText", longTextType);
registerChallengeType("code", { FlagInput: LazyCode, canSubmit: (_c, value) => typeof value === "string" && value.trim() !== "" });
registerChallengeType("map", { FlagInput: LazyMap, canSubmit: (_c, value) => Array.isArray(value) });
registerEditorType("default", NoExtraFields);
registerEditorType("freeform", NoExtraFields);
registerEditorType("longText", NoExtraFields);
registerEditorType("code", CodeEditorFields);
registerEditorType("map", MapEditorFields);
