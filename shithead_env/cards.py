"""Ranks, suits and card codes.

A card is an ``int``: ``rank_index * 4 + suit_index``. Suits never matter for
play, so the engine works on ``card >> 2`` (the rank index) almost everywhere;
the suit only survives so states can be shown and serialised faithfully. Two
decks simply hold every code twice.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "X")
NUM_RANKS = len(RANKS)
JOKER = RANKS.index("X")
SUITS: tuple[str, ...] = ("C", "D", "H", "S")
JOKER_SUITS: tuple[str, ...] = ("R", "B")
SUITS_PER_DECK = len(SUITS)
JOKERS_PER_DECK_MAX = len(JOKER_SUITS)

RANK_INDEX: dict[str, int] = {name: i for i, name in enumerate(RANKS)}
_RANK_ALIASES = {"10": "T", "JOKER": "X"}


def rank_index(name: object) -> int:
    """Index of a rank given as ``"K"``, ``"T"``/``"10"``, ``"X"`` or an int 2..10."""
    key = str(name).strip().upper()
    key = _RANK_ALIASES.get(key, key)
    try:
        return RANK_INDEX[key]
    except KeyError:
        raise ValueError(f"unknown rank {name!r}: expected one of {' '.join(RANKS)}") from None


RANK_WORDS: dict[str, str] = {"T": "10", "X": "Joker"}  # the ranks text writes otherwise than the card names


def rank_word(rank: str) -> str:
    """A rank as players say and read it: ``T`` is a 10, ``X`` a Joker (every text the player reads shows this)."""
    return RANK_WORDS.get(rank, rank)


def card_word(name: str) -> str:
    """A card as text shows it: ``TS`` reads ``10S``, a Joker of either colour ``Joker``; the rest as named."""
    rank = name[0]
    return "Joker" if rank == "X" else rank_word(rank) + name[1:]


def card_code(name: str) -> int:
    """Parse ``"KS"``, ``"TH"``, ``"XR"`` into a card code."""
    if not isinstance(name, str) or len(name) != 2:
        raise ValueError(f"unknown card {name!r}: expected rank + suit such as 'KS', 'TH', 'XR'")
    rank, suit = name[0].upper(), name[1].upper()
    if rank not in RANK_INDEX:
        raise ValueError(f"unknown card {name!r}: bad rank {rank!r}")
    suits = JOKER_SUITS if rank == "X" else SUITS
    if suit not in suits:
        raise ValueError(f"unknown card {name!r}: suit must be one of {''.join(suits)}")
    return RANK_INDEX[rank] * 4 + suits.index(suit)


def card_name(code: int) -> str:
    rank = code >> 2
    suits = JOKER_SUITS if rank == JOKER else SUITS
    return RANKS[rank] + suits[code & 3]


_NAMES = tuple(card_name(r * 4 + s) if (r != JOKER or s < 2) else "" for r in range(NUM_RANKS) for s in range(4))


def card_names(codes: Iterable[int]) -> list[str]:
    return [_NAMES[c] for c in codes]


def make_deck(decks: int, jokers_per_deck: int) -> list[int]:
    """All card codes for ``decks`` decks, in a fixed order (shuffle it yourself)."""
    one = [r * 4 + s for r in range(NUM_RANKS) if r != JOKER for s in range(SUITS_PER_DECK)]
    one += [JOKER * 4 + s for s in range(jokers_per_deck)]
    return one * decks


@functools.lru_cache(maxsize=64)
def deck_counts(decks: int, jokers_per_deck: int, per_rank: bool) -> tuple[int, ...]:
    """Copies of each card code (or of each rank index, ``per_rank``) in ``decks`` decks."""
    counts = [0] * (NUM_RANKS if per_rank else NUM_RANKS * 4)
    for card in make_deck(decks, jokers_per_deck):
        counts[card >> 2 if per_rank else card] += 1
    return tuple(counts)


def copies_left(decks: int, jokers_per_deck: int, seen: Iterable[Sequence[int]], rank: int) -> int:
    """``counts_left(..., per_rank=True)[rank]`` for one rank, at a fraction of the cost (the engine asks it at
    every play that may open an out-of-turn window)."""
    copies = deck_counts(decks, jokers_per_deck, True)[rank]
    for zone in seen:
        for card in zone:
            if card >> 2 == rank:
                copies -= 1
    return copies


def counts_left(decks: int, jokers_per_deck: int, seen: Iterable[Sequence[int]], per_rank: bool = False) -> list[int]:
    """Copies of each card code (or rank index) in ``decks`` decks beyond the cards of the ``seen`` zones: what
    is left unseen (a seat's unseen cards, the engine's copies of a rank nobody has seen)."""
    shift = 2 if per_rank else 0
    counts = list(deck_counts(decks, jokers_per_deck, per_rank))
    for zone in seen:
        for card in zone:
            counts[card >> shift] -= 1
    return counts
