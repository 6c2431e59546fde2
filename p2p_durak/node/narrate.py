"""Readable lines (Russian or English) and JSON records for what happens at a table.

The headless commands print these lines, write the JSON records one per line into the game's
event log, and `durak replay` prints a saved game with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2p_durak import engine as eng
from p2p_durak.engine import events as E
from p2p_durak.engine.cards import SUIT_NAMES, SUIT_SYMBOLS
from p2p_durak.engine.state import trump_suits
from p2p_durak.protocol.table import AuditFinished, CardsLearned, Seated, TableEvent

_SUITS_RU = ("пики", "трефы", "бубны", "черви")


def _t(lang: str, en: str, ru: str) -> str:
    return ru if lang == "ru" else en


class Narrator:
    def __init__(self, game: eng.Game | None, names: Sequence[str], lang: str = "en") -> None:
        self.game = game
        self.names = list(names)  # by engine seat, once seated; by party before
        self.lang = lang

    def card(self, card: int) -> str:
        if self.game is None or card < 0:
            return "?"
        return self.game.deck.card_text(card, self.lang)

    def cards(self, cards: Sequence[int]) -> str:
        return " ".join(self.card(c) for c in cards)

    def who(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else f"#{seat}"

    def seated(self, event: Seated, party_names: Sequence[str], game: eng.Game) -> str:
        self.game = game
        self.names = [party_names[event.seat_of_party.index(s)]
                      for s in range(len(event.seat_of_party))]
        order = ", ".join(self.names)
        return _t(self.lang, f"seats drawn: {order}; {self.who(event.dealer)} deals",
                  f"места по жребию: {order}; сдаёт {self.who(event.dealer)}")

    def lines(self, event: TableEvent, party_names: Sequence[str]) -> list[str]:
        lang = self.lang
        if isinstance(event, Seated):
            return []  # needs the game: the caller uses `seated`
        if isinstance(event, CardsLearned):
            return [_t(lang, f"my cards: {self.cards(event.cards)}",
                       f"мои карты: {self.cards(event.cards)}")]
        if isinstance(event, AuditFinished):
            if not event.cheaters:
                return [_t(lang, "audit: every card and claim checked, all honest",
                           "проверка: все карты и заявки честные")]
            return [_t(lang, f"audit: {self.who(s)} {why}", f"проверка: {self.who(s)} — {why}")
                    for s, why in event.cheaters]
        out = []
        for ev in event.events:
            text = self.engine_event(ev)
            if text:
                out.append(text)
        return out

    def engine_event(self, ev: E.Event) -> str:
        lang, who = self.lang, self.who
        if isinstance(ev, E.TrumpReinserted):
            return _t(lang, f"{self.card(ev.card)} turned: into the middle of the stock",
                      f"открылся {self.card(ev.card)}: в середину колоды")
        if isinstance(ev, E.TrumpRevealed):
            # one suit, or both suits of a colour (a joker turned as trump)
            suits = sorted(trump_suits(ev.suit))
            suit = "".join(SUIT_SYMBOLS[s] for s in suits) or "-"
            name = "+".join((_SUITS_RU if lang == "ru" else SUIT_NAMES)[s] for s in suits)
            card = f" ({self.card(ev.card)})" if ev.card >= 0 else ""
            return _t(lang, f"trump: {suit} {name}{card}", f"козырь: {suit} {name}{card}")
        if isinstance(ev, E.TrumpNamed):
            suit = SUIT_SYMBOLS[ev.suit]
            name = (_SUITS_RU if lang == "ru" else SUIT_NAMES)[ev.suit]
            return _t(lang, f"{who(ev.seat)}, the King, names the trump: {suit} {name}",
                      f"{who(ev.seat)}, Король, назначает козырь: {suit} {name}")
        if isinstance(ev, E.HiddenTrumpRevealed):
            return _t(lang, f"the hidden trump is {self.card(ev.card)}: new trump",
                      f"потайной козырь {self.card(ev.card)} — новый козырь")
        if isinstance(ev, E.Rebounded):
            return _t(lang, f"{len(ev.cards)} cards shuffled back into the stock",
                      f"{len(ev.cards)} карт замешаны обратно в колоду")
        if isinstance(ev, E.PersonalTrump):
            return _t(lang, f"{who(ev.seat)}'s own trump: {self.card(ev.card)}",
                      f"личный козырь {who(ev.seat)}: {self.card(ev.card)}")
        if isinstance(ev, E.TrumpSwapped):
            return _t(lang, f"{self.card(ev.card)} swaps with {self.card(ev.old_card)}: new trump",
                      f"{self.card(ev.card)} меняется с {self.card(ev.old_card)} — новый козырь")
        if isinstance(ev, E.Claimed):
            if ev.card < 0:
                return _t(lang, f"{who(ev.seat)}: no trump", f"{who(ev.seat)}: козырей нет")
            return _t(lang, f"{who(ev.seat)} shows {self.card(ev.card)}",
                      f"{who(ev.seat)} показывает {self.card(ev.card)}")
        if isinstance(ev, E.FirstAttacker):
            how = _t(lang, " by lot", " по жребию") if ev.by_lot else ""
            return _t(lang, f"{who(ev.seat)} leads first{how}", f"первым ходит {who(ev.seat)}{how}")
        if isinstance(ev, E.BoutStarted):
            return _t(lang, f"— {who(ev.attacker)} attacks {who(ev.defender)}",
                      f"— {who(ev.attacker)} ходит под {who(ev.defender)}")
        if isinstance(ev, E.Led):
            return _t(lang, f"{who(ev.seat)} leads {self.cards(ev.cards)}",
                      f"{who(ev.seat)} ходит {self.cards(ev.cards)}")
        if isinstance(ev, E.ThrewIn):
            return _t(lang, f"{who(ev.seat)} throws in {self.card(ev.card)}",
                      f"{who(ev.seat)} подкидывает {self.card(ev.card)}")
        if isinstance(ev, E.Beat):
            return _t(lang, f"{who(ev.seat)} beats {self.card(ev.attack_card)} with "
                      f"{self.card(ev.card)}",
                      f"{who(ev.seat)} кроет {self.card(ev.attack_card)} "
                      f"картой {self.card(ev.card)}")
        if isinstance(ev, E.Transferred):
            how = _t(lang, "shows", "показывает") if ev.shown else _t(lang, "adds", "кладёт")
            return _t(lang, f"{who(ev.seat)} {how} {self.card(ev.card)}: transfer to "
                      f"{who(ev.new_defender)}",
                      f"{who(ev.seat)} {how} {self.card(ev.card)}: перевод на "
                      f"{who(ev.new_defender)}")
        if isinstance(ev, E.TakeDeclared):
            return _t(lang, f"{who(ev.seat)}: «I take»", f"{who(ev.seat)}: «беру»")
        if isinstance(ev, E.Took):
            return _t(lang, f"{who(ev.seat)} takes {self.cards(ev.cards)}",
                      f"{who(ev.seat)} забирает {self.cards(ev.cards)}")
        if isinstance(ev, E.Discarded):
            return _t(lang, f"beaten: {self.cards(ev.cards)}", f"бито: {self.cards(ev.cards)}")
        if isinstance(ev, E.HandsRotated):
            return _t(lang, "hands pass to the left", "карты переходят к игроку слева")
        if isinstance(ev, E.PlayerOut):
            return _t(lang, f"{who(ev.seat)} is out", f"{who(ev.seat)} вышел")
        if isinstance(ev, E.Conceded):
            return _t(lang, f"{who(ev.seat)} gives the game up", f"{who(ev.seat)} сдаётся")
        if isinstance(ev, E.GameOver):
            scores = ", ".join(f"{who(s)} {n}" for s, n in enumerate(ev.scores))
            scored = _t(lang, f" (scores: {scores})", f" (очки: {scores})") if scores else ""
            if ev.winners:
                won = ", ".join(who(s) for s in ev.winners)
                return _t(lang, f"winner: {won}{scored}", f"победитель: {won}{scored}")
            if ev.draw:
                return _t(lang, f"the game is a draw{scored}", f"ничья{scored}")
            duraks = ", ".join(who(s) for s in ev.durak) + scored
            pogony = _t(lang, f" with {ev.pogony} epaulette(s)", f", погон: {ev.pogony}") \
                if ev.pogony else ""
            return _t(lang, f"durak: {duraks}{pogony}", f"дурак: {duraks}{pogony}")
        return ""


def event_record(event: TableEvent) -> dict[str, Any]:
    """A JSON-ready record of a table event (for the per-game event log)."""
    if isinstance(event, Seated):
        return {"type": "seated", "seat_of_party": list(event.seat_of_party),
                "dealer": event.dealer}
    if isinstance(event, CardsLearned):
        return {"type": "my_cards", "cards": list(event.cards)}
    if isinstance(event, AuditFinished):
        return {"type": "audit", "cheaters": [list(c) for c in event.cheaters]}
    return {"type": "move", "seat": event.seat,
            "action": list(eng.encode_action(event.action)[:2]) + [
                list(event.action.cards), event.action.target],
            "events": [{"type": type(ev).__name__, **ev._asdict()} for ev in event.events]}
