"""The phases of a game, in the order play meets them, and the coarser stages a seat passes through."""

SWAP, PLAY, NOMINATE, INTERRUPT, OVER = "swap", "play", "nominate", "interrupt", "over"
PHASES = (SWAP, PLAY, NOMINATE, INTERRUPT, OVER)

# Where a seat's game stands when it decides: the swap, play while the draw pile lasts, play from the hand once
# it is gone (the endgame where a search gains most over a network: docs/bots.md), play from the table cards.
STAGES = ("swap", "pile", "hand", "table")


def stage_of(phase: str, draw_size: int, zone: str) -> str:
    """The stage of a decision in ``phase``, with ``draw_size`` cards left to draw, by a seat playing from ``zone``."""
    if phase == SWAP:
        return "swap"
    if draw_size:
        return "pile"
    return "hand" if zone == "hand" else "table"
