import { addTexts } from "../../lib/i18n.ts";

/** The event's moments as every page tells them: the freeze, the end, the reveal. */
addTexts({
  scoreboard_admin: {
    intro: "What players see of the scores, and the reveal of the final board at the prize-giving.",
    status: "Right now",
    live: "The scoreboard is live: players see every solve.",
    freezes_at: "The scoreboard freezes at {{time}}.",
    frozen: "Frozen since {{time}}: players see the board as it stood then, plus their own team's later solves.",
    reveal_help_running: "The event is still running. Revealing now shows everyone the live board again.",
    reveal_help_ended: "The event is over and the board stays frozen until you reveal it, typically at the prize-giving.",
    reveal: "Reveal the final board",
    reveal_title: "Reveal the final board?",
    reveal_body: "Every player's and visitor's board, the projector included, shows all solves at once. The freeze time is cleared.",
    revealed: "Final board revealed",
    nothing_to_reveal: "Nothing to reveal. Set or move the freeze in the",
    open_leaderboard: "Open the leaderboard",
    open_projector: "Open the projector board",
  },
  moments: {
    frozen_title: "Scoreboard frozen since {{time}}",
    frozen_body: "Solves after that stay hidden from everyone else until the organisers reveal the final board. Your team's own solves still show here.",
    frozen_body_visitor: "Solves after that stay hidden until the organisers reveal the final board.",
    frozen_ended_body: "The event is over. The final board is revealed at the prize-giving.",
    frozen_staff_title: "Players see the scoreboard frozen since {{time}}",
    frozen_staff_body: "You see it live. Reveal the final board at the prize-giving from the console's Scoreboard page.",
    staff_board_live: "Live board",
    staff_board_players: "Players' board (frozen)",
    staff_board_label: "Which board to show",
    final_board: "Final results",
  },
});
