import { useRouterState } from "@tanstack/react-router";
import { useAppData } from "../../shell/useAppData.ts";

/** The URL hash without '#': 'edit' opens the staff editors. */
export function useHash(): string {
  return useRouterState({ select: (s) => s.location.hash });
}

/** Whether the signed-in user is staff and the URL asks for edit mode (#edit). */
export function useStaffEditing(): { staff: boolean; editing: boolean } {
  const { me } = useAppData();
  const hash = useHash();
  const staff = me?.isStaff === true;
  return { staff, editing: staff && hash === "edit" };
}
