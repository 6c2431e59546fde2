"""Readable lines (Russian or English) and JSON records for what happens at a table.

The headless commands print these lines, write the JSON records one per line into the game's
event log, and `durak replay` prints a saved game with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from p2p_durak import engine as eng
from p2p_durak.engine import events as E
from p2p_durak.engine.cards import SUIT_NAMES, SUIT_NAMES_RU, SUIT_SYMBOLS
from p2p_durak.engine.state import trump_suits
from p2p_durak.node.event_lines import EventLines
from p2p_durak.protocol.table import (
    AuditFinished,
    CardsLearned,
    DeckBroken,
    Forfeited,
    HandSeen,
    LeaveAnnounced,
    NextGame,
    PartyLeft,
    Seated,
    SeriesOver,
    SeriesScore,
    TableEvent,
)


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
        self.names = seat_names(event.seat_of_party, party_names, game.dummy, self.lang)
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
        if isinstance(event, HandSeen):  # оборотный: another seat's cards, unseen by him
            return [_t(lang, f"{self.who(event.seat)} holds {self.cards(event.cards)}",
                       f"{self.who(event.seat)} держит {self.cards(event.cards)}")]
        if isinstance(event, AuditFinished):
            if not event.cheaters:
                return [_t(lang, "audit: every card and claim checked, all honest",
                           "проверка: все карты и заявки честные")]
            return [_t(lang, f"audit: {self.who(s)} {why}", f"проверка: {self.who(s)} — {why}")
                    for s, why in event.cheaters]
        if isinstance(event, Forfeited):
            return [self.forfeit(event)]
        if isinstance(event, DeckBroken):
            who = "?" if event.shuffler is None else party_names[event.shuffler]
            end = _t(lang, "the game ends with the audit" if event.public
                     else "the audit at the end will check every shuffle",
                     "игра заканчивается проверкой колоды" if event.public
                     else "проверка в конце игры откроет все тасовки")
            return [_t(lang, f"slot {event.slot} opened to no card: {who}'s shuffle put it "
                       f"there; {end}",
                       f"ячейка {event.slot} открылась не картой: её выдала тасовка {who}; "
                       f"{end}")]
        if isinstance(event, LeaveAnnounced):
            return [_t(lang, f"{party_names[event.party]} will leave the table after this bout",
                       f"{party_names[event.party]} уйдёт из-за стола после этого захода")]
        if isinstance(event, PartyLeft):
            return [_t(lang, f"{party_names[event.party]} leaves the table; the others play on",
                       f"{party_names[event.party]} уходит из-за стола; остальные играют дальше")]
        if isinstance(event, NextGame):
            return [_t(lang, f"game {event.number} of the series begins",
                       f"начинается партия {event.number}"), self.series(event.score)]
        if isinstance(event, SeriesOver):
            chose = ", ".join(party_names[p] for p in event.stopped if p not in event.timed_out)
            late = ", ".join(party_names[p] for p in event.timed_out)
            lines = []
            if event.abandoned:
                gone = ", ".join(party_names[p] for p in event.abandoned)
                lines.append(_t(lang, f"the table stops: {gone} abandoned the game",
                                f"игра окончена: {gone} бросил партию"))
            if chose:
                lines.append(_t(lang, f"the table stops: {chose} chose not to play on",
                                f"игра окончена: {chose} не стали играть дальше"))
            if late:
                lines.append(_t(lang, f"the table stops: {late} did not choose in time "
                                "(counted as stopping)",
                                f"игра окончена: {late} не ответили вовремя (считается, что "
                                "не играют дальше)"))
            return [*lines, self.series(event.score)]
        out = []
        for ev in event.events:
            text = self.engine_event(ev)
            if text:
                out.append(text)
        return out

    def forfeit(self, event: Forfeited) -> str:
        """Who lost the game by forfeit, and why; then the result that stands."""
        who = ", ".join(self.who(s) for s in event.seats)
        losers = ", ".join(self.who(s) for s in event.result.durak)
        if event.why == "cheated":
            return _t(self.lang, f"forfeit: {who} caught lying by the audit, loses the game; "
                      f"durak: {losers}",
                      f"поражение: {who} уличён проверкой в обмане и проигрывает партию; "
                      f"дурак: {losers}")
        return _t(self.lang, f"forfeit: {who} abandoned the game and loses it; durak: {losers}",
                  f"поражение: {who} бросил партию и проигрывает её; дурак: {losers}")

    def series(self, score: SeriesScore) -> str:
        """The series score: games, and per seat how often the durak (and points, when
        scored)."""
        parts = []
        dummy = self.game.dummy if self.game is not None else -1
        for seat, duraks in enumerate(score.duraks):
            if seat == dummy:  # с болваном: the dummy is never the durak, and scores nothing
                continue
            points = _t(self.lang, f", {score.points[seat]} points",
                        f", очков {score.points[seat]}") if score.points else ""
            parts.append(f"{self.who(seat)} {duraks}{points}")
        listed = "; ".join(parts)
        return _t(self.lang, f"series after {score.games} game(s), duraks: {listed}",
                  f"счёт после {score.games} парт.: дураком был {listed}")

    def engine_event(self, ev: E.Event) -> str:
        lines = EventLines(self.lang, self.who, self.card, self._suit, detail=True)
        return lines(ev) or ""

    def _suit(self, suit: int) -> str:
        """A trump value as symbols and names: one suit, or both suits of a colour."""
        suits = sorted(trump_suits(suit))
        names = SUIT_NAMES_RU if self.lang == "ru" else SUIT_NAMES
        return ("".join(SUIT_SYMBOLS[s] for s in suits) or "-") + " " + \
            "+".join(names[s] for s in suits)


def dummy_name(lang: str) -> str:
    """с болваном: how the dummy's seat is named wherever a player's name would stand."""
    return _t(lang, "Dummy", "Болван")


def seat_names(seat_of_party: Sequence[int], party_names: Sequence[str], dummy: int,
               lang: str) -> list[str]:
    """The names by engine seat: each party's at its seat, and (с болваном) the dummy at its
    own, which no party holds."""
    names = [dummy_name(lang)] * (len(seat_of_party) + (1 if dummy >= 0 else 0))
    for party, seat in enumerate(seat_of_party):
        names[seat] = party_names[party]
    return names


def event_record(event: TableEvent) -> dict[str, Any]:
    """A JSON-ready record of a table event (for the per-game event log)."""
    if isinstance(event, Seated):
        record: dict[str, Any] = {"type": "seated", "seat_of_party": list(event.seat_of_party),
                                  "dealer": event.dealer}
        if event.game is not None and event.game.dummy >= 0:
            record["dummy"] = event.game.dummy  # с болваном: the seat no party holds
        return record
    if isinstance(event, CardsLearned):
        return {"type": "my_cards", "cards": list(event.cards)}
    if isinstance(event, HandSeen):
        return {"type": "hand_seen", "seat": event.seat, "cards": list(event.cards)}
    if isinstance(event, AuditFinished):
        return {"type": "audit", "cheaters": [list(c) for c in event.cheaters]}
    if isinstance(event, Forfeited):
        return {"type": "forfeit", "seats": list(event.seats), "why": event.why,
                "durak": list(event.result.durak)}
    if isinstance(event, DeckBroken):
        return {"type": "deck_broken", "slot": event.slot, "shuffler": event.shuffler,
                "step": event.step, "reason": event.reason, "public": event.public}
    if isinstance(event, PartyLeft):
        return {"type": "party_left", "party": event.party}
    if isinstance(event, LeaveAnnounced):
        return {"type": "leave_announced", "party": event.party}
    if isinstance(event, NextGame | SeriesOver):
        score = event.score
        record = {"games": score.games, "duraks": list(score.duraks),
                                  "pogony": list(score.pogony), "points": list(score.points),
                                  "draws": score.draws}
        if isinstance(event, NextGame):
            return {"type": "next_game", "number": event.number, "series": record}
        return {"type": "series_over", "stopped": list(event.stopped),
                "timed_out": list(event.timed_out), "abandoned": list(event.abandoned),
                "series": record}
    return {"type": "move", "seat": event.seat,
            "action": list(eng.encode_action(event.action)[:2]) + [
                list(event.action.cards), event.action.target],
            "events": [{"type": type(ev).__name__, **ev._asdict()} for ev in event.events]}
