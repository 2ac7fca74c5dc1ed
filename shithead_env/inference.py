"""What public history says about the hidden cards in a hand: each seat's *narrowed* cards.

A seat's hand holds *known* cards (everyone saw them arrive: a pickup, face-up
cards taken up) and *hidden* ones (dealt or drawn). Public events narrow the
ranks the hidden ones can have:

- a pickup under rules without ``voluntary_pickup``: none of the hidden cards
  could be played on that pile (the rules would have forbidden the pickup);
- a lowest-card opener (``first_player: lowest_card``): nobody held a card
  counted lower than the opener's, no seat asked before it one counted equal,
  and the opener held that rank.

A seat's narrowing is a list of rank bitmasks (bit ``r`` set: rank index ``r``
possible), one per narrowed hidden card; its other hidden cards may be any
rank. When a hidden card of rank ``r`` is played, nobody can tell which of
them it was: ``play_hidden`` drops the narrowest one that allows ``r`` and
widens the other cards allowing ``r`` by what it allowed. That keeps the
narrowing *sound* (the true cards always fit: a property test checks it on
every step) and, when the masks nest (as those of one rank order do), as
tight as one mask per card can be: the result is itself one of the cases.
The engine keeps it (``Game.narrowed``), views and states carry it, and the
determinizer deals hidden cards that fit it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from shithead_env.cards import NUM_RANKS, RANKS, rank_index
from shithead_env.errors import StateError

ALL_RANKS = (1 << NUM_RANKS) - 1


def narrow(masks: Sequence[int], hidden: int, allowed: int) -> list[int]:
    """Every one of ``hidden`` hidden cards (``masks`` narrowing some) is also of a rank in ``allowed``."""
    narrowed = [mask & allowed for mask in masks]
    if allowed != ALL_RANKS:
        narrowed += [allowed] * (hidden - len(masks))
    return [mask for mask in narrowed if mask != ALL_RANKS]


def play_hidden(masks: Sequence[int], hidden: int, rank: int) -> list[int]:
    """The narrowing after one of ``hidden`` hidden cards, of rank ``rank``, left the hand (module doc)."""
    bit = 1 << rank
    allowing = [i for i, mask in enumerate(masks) if mask & bit]
    if not allowing:
        if hidden > len(masks):
            return list(masks)  # it was one of the cards nothing narrowed
        raise ValueError(f"no hidden card may be of rank index {rank}: the narrowing {list(masks)} is unsound")
    dropped = min(allowing, key=lambda i: masks[i].bit_count())
    widen = masks[dropped]
    return [mask | widen if mask & bit else mask for i, mask in enumerate(masks) if i != dropped]


def lay_hidden(masks: Sequence[int], hidden: int, rank: int, count: int) -> Sequence[int]:
    """The narrowing after ``count`` of ``hidden`` hidden cards, all of rank ``rank``, left the hand
    (``play_hidden`` for each; ``masks`` itself when nothing is narrowed)."""
    for i in range(count):
        if not masks:
            break
        masks = play_hidden(masks, hidden - i, rank)
    return masks


def hidden_cards(hand: Sequence[int], known: Sequence[int]) -> list[int]:
    """The cards of ``hand`` outside ``known`` (a multiset difference): the ones a narrowing is about."""
    return list((Counter(hand) - Counter(known)).elements())


def match(masks: Sequence[int], cards: Sequence[int]) -> list[int] | None:
    """For each of ``masks`` the index of a distinct card of ``cards`` (card codes) of a rank it allows, or None
    when no such one-to-one assignment exists.

    Each mask takes the first free fitting card in ``cards``'s order (on a shuffled pool: a random deal); only
    when that gets stuck does a bipartite matching by augmenting paths decide (a hand or a pool has a few dozen
    cards at most). The first pass is a search's hot path: one determinization each simulation.
    """
    taken = [False] * len(cards)
    picks: list[int] = []
    for mask in masks:
        for c, card in enumerate(cards):
            if not taken[c] and mask >> (card >> 2) & 1:
                taken[c] = True
                picks.append(c)
                break
        else:
            return _augmenting_match(masks, cards)
    return picks


def _augmenting_match(masks: Sequence[int], cards: Sequence[int]) -> list[int] | None:
    """``match`` when first-free picks get stuck: Kuhn's augmenting paths, free fitting cards tried first."""
    if len(masks) > len(cards):
        return None
    owner: list[int | None] = [None] * len(cards)  # mask index each card is matched to

    def place(m: int, seen: list[bool]) -> bool:
        fitting = [c for c, card in enumerate(cards) if masks[m] >> (card >> 2) & 1]
        free = next((c for c in fitting if owner[c] is None), None)
        if free is not None:
            owner[free] = m
            return True
        for c in fitting:
            if not seen[c]:
                seen[c] = True
                if place(owner[c], seen):  # type: ignore[arg-type]  # every fitting card is owned here
                    owner[c] = m
                    return True
        return False

    if not all(place(m, [False] * len(cards)) for m in range(len(masks))):
        return None
    picks = [0] * len(masks)
    for c, m in enumerate(owner):
        if m is not None:
            picks[m] = c
    return picks


def fits(masks: Sequence[int], cards: Sequence[int]) -> bool:
    """Whether the hidden ``cards`` (card codes) can be matched one to one into the narrowed ``masks``."""
    return match(masks, cards) is not None


def ranks_mask(ranks: Sequence[int]) -> int:
    """The bitmask of rank indices ``ranks``."""
    mask = 0
    for rank in ranks:
        mask |= 1 << rank
    return mask


def mask_ranks(mask: int) -> list[int]:
    """The rank indices set in ``mask``, ascending."""
    return [r for r in range(NUM_RANKS) if mask >> r & 1]


def narrowed_names(masks: Sequence[int]) -> list[list[str]]:
    """The JSON form of a seat's narrowing: for each narrowed hidden card, the rank names it may have."""
    return [[RANKS[r] for r in mask_ranks(mask)] for mask in masks]


def read_narrowed(value: Any, where: str) -> list[int]:
    """Parse ``narrowed_names`` output back into masks; ``StateError`` names the fault."""
    if not isinstance(value, list):
        raise StateError(f"{where} must be a list of rank lists such as [['3', '4']], got {value!r}")
    masks = []
    for i, names in enumerate(value):
        if not isinstance(names, list) or not names:
            raise StateError(f"{where}[{i}] must be a non-empty list of rank names, got {names!r}")
        try:
            mask = ranks_mask([rank_index(name) for name in names])
        except (ValueError, TypeError) as error:
            raise StateError(f"{where}[{i}]: {error}") from None
        if mask == ALL_RANKS or mask.bit_count() != len(names):
            raise StateError(f"{where}[{i}] must name distinct ranks, not every rank: got {names!r}")
        masks.append(mask)
    return masks
