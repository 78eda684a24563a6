import { addTexts } from "../../lib/i18n.ts";

/** English texts of leaderboard groups (divisions): the picker, the board tabs and staff management. */
export const groupTexts = {
  groups: {
    picker: "Leaderboard group",
    none: "No group",
    admin_title: "Leaderboard groups",
    admin_intro: "Divisions of the team leaderboard, for example Students and Open. A team picks one when it is created; staff can move teams between them.",
    empty: "No groups yet. Teams all share one leaderboard.",
    load_failed: "Could not load the groups.",
    name: "Name",
    description: "Description",
    self_assignable: "Teams may pick it",
    own_leaderboard: "Own leaderboard tab",
    yes: "Yes",
    no: "No",
    actions: "Actions",
    add: "Add group",
    add_title: "New group",
    edit: "Edit {{name}}",
    edit_title: "Edit group",
    delete: "Delete {{name}}",
    delete_title: "Delete the group?",
    delete_action: "Delete",
    delete_confirm: "Teams in {{name}} will have no group. Their points stay.",
    save: "Save",
    cancel: "Cancel",
    created: "Group created",
    saved: "Group saved",
    deleted: "Group deleted",
  },
};

addTexts(groupTexts);
