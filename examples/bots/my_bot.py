"""A whole bot: play the lowest rank you may (all its cards), else the first legal action (pick up, flip a card).

``shithead bench py:examples/bots/my_bot.py:LowestBot`` rates it; docs/specs.md says how any bot is seated.
"""

RANKS = "23456789TJQKAX"  # low to high; X is the Joker


class LowestBot:
    def act(self, view, rng):
        plays = [a for a in view["legal_actions"] if a["kind"] == "play"]
        if not plays:
            return view["legal_actions"][0]
        return min(plays, key=lambda a: (RANKS.index(a["rank"]), -a["count"]))
