"""The phases of a game, in the order play meets them."""

SWAP, PLAY, NOMINATE, INTERRUPT, OVER = "swap", "play", "nominate", "interrupt", "over"
PHASES = (SWAP, PLAY, NOMINATE, INTERRUPT, OVER)
