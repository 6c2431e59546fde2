"""Fixed positions of Дурак чухонский for the rule tests: hands in card notation, every other
card in the discard (or on the pile)."""

from __future__ import annotations

from dataclasses import replace

from p2p_durak.engine.cards import mask_of
from p2p_durak.engine.games import chukhonsky as C


def position(hands: list[str], *, turn: int = 0, pile: str = "", dealer: int | None = None,
             **options: object) -> C.State:
    """A full state in play: the given hands, the pile (bottom first), the rest discarded."""
    rules = C.ChukhonskyRules(**options)  # type: ignore[arg-type]
    n = len(hands)
    game = C.make_game(rules, n, (turn - 1) % n if dealer is None else dealer)
    state = C.step(C.new_game(game, list(range(game.n_cards))), C.deal())
    masks = tuple(mask_of(cards(game, text)) for text in hands)
    laid = cards(game, pile)
    used = mask_of(laid)
    for mask in masks:
        used |= mask
    everything = (1 << game.n_cards) - 1
    return replace(state, hands=masks, pile=laid, discard=everything & ~used, turn=turn)


def cards(game: C.Game, text: str) -> tuple[int, ...]:
    return tuple(game.deck.parse(word) for word in text.split())


def do(state: C.State, *moves: str) -> C.State:
    """Apply moves written `0 play 8♠` / `1 take`."""
    for text in moves:
        seat, kind, *rest = text.split()
        move = C.take(int(seat)) if kind == "take" else \
            C.play(int(seat), state.game.deck.parse(rest[0]))
        state = C.step(state, move)
    return state
