"""What each engine event says, in English and Russian: one catalogue for every reader.

The headless log and `durak replay` (node/narrate.py) and the table screen's move log
(cli/event_text.py) both turn events into lines here, so a new event is written once and
reads the same everywhere. The lines are short because the table screen's log is a column of
23 characters at 80x24. The readers differ only in how they show cards, suits and names (the
screen may use ASCII suits) and in `detail`: the headless log lists the cards a player took or
that went to the discard and names the durak at the end; the screen counts the cards and leaves
the result to its end-of-game panel.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from p2p_durak.engine import events as E
from p2p_durak.engine.cards import NO_SUIT
from p2p_durak.engine.state import BLACK_PAIR

LANGS = ("en", "ru")

LINES: dict[str, tuple[str, str]] = {
    "Dealt": ("{who} dealt", "{who} раздаёт"),
    "TrumpRevealed": ("Trump: {card}", "Козырь: {card}"),
    "TrumpSuit": ("Trump suit: {suit}", "Козырная масть: {suit}"),
    "TrumpPair": ("Trump: {card} = {suit}", "Козырь: {card} = {suit}"),
    "NoTrump": ("No trumps this game", "Игра без козырей"),
    "TrumpReinserted": ("{card}: into the stock", "{card}: в колоду"),
    "TrumpNamed": ("{who} names the trump: {suit}", "{who} назначает козырь: {suit}"),
    "HiddenTrumpRevealed": ("Hidden trump: {card}", "Потайной козырь: {card}"),
    "PersonalTrump": ("{who}'s own trump: {card}", "Личный козырь {who}: {card}"),
    "SixDealt": ("{who} gets a six: {suit} is his own trump",
                 "{who} получает шестёрку: {suit} — его личный козырь"),
    "TrumpSwapped": ("New trump: {card} (replaces {old})", "Новый козырь: {card} (вместо {old})"),
    "Claimed": ("{who} shows {card}", "{who} показывает {card}"),
    "ClaimedNone": ("{who}: no trump", "{who}: нет козыря"),
    "FirstAttacker": ("{who} leads first", "Первым ходит {who}"),
    "FirstAttackerLot": ("{who} leads first (by lot)", "Первым ходит {who} (жребий)"),
    "BoutStarted": ("{who} → {whom}", "{who} → {whom}"),
    "Led": ("{who}: {cards}", "{who}: {cards}"),
    "ThrewIn": ("{who} throws {card}", "{who} подкидывает {card}"),
    "StockLeadDeclared": ("{who} leads the top stock card, unseen",
                          "{who} ходит верхней картой колоды, не глядя"),
    "StockLed": ("{who}: {card} from the stock", "{who}: {card} с колоды"),
    "Beat": ("{who}: {card} on {attack}", "{who}: {card} на {attack}"),
    "Covered": ("{who}: face down on {attack}", "{who}: в закрытую на {attack}"),
    "CoveredMine": ("{who}: {card} face down on {attack}", "{who}: {card} в закрытую на {attack}"),
    "Doubted": ("{who}: I doubt it ({attack})", "{who}: сомневаюсь ({attack})"),
    "DoubtTrue": ("{card} beats {attack}: {whom} takes", "{card} бьёт {attack}: берёт {whom}"),
    "DoubtFalse": ("{card} does not beat {attack}: {whom} takes",
                   "{card} не бьёт {attack}: берёт {whom}"),
    "Buried": ("{n} face down to the discard", "В отбой в закрытую: {n}"),
    "Exchanged": ("{who} swaps {n} with the stock", "{who} меняет {n} с колодой"),
    "ExchangedMine": ("{who} swaps {given} for {cards}", "{who} меняет {given} на {cards}"),
    "StockShuffled": ("The stock is shuffled", "Колода перемешана"),
    "SentBack": ("{who} sends {card} back → {whom}", "{who} возвращает {card} → {whom}"),
    "Transferred": ("{who} transfers {card} → {whom}", "{who} переводит {card} → {whom}"),
    "TransferredShown": ("{who} shows {card} → {whom}", "{who} показывает {card} → {whom}"),
    "TakeDeclared": ("{who}: I take", "{who}: беру"),
    "Misplayed": ("{who}: {card} does not fit", "{who}: {card} не подходит"),
    "Passed": ("{who}: pass", "{who}: пас"),
    "Discarded": ("Done (бито): {n} {cards_word}", "Бито: {n} {cards_word}"),
    "DiscardedCards": ("Done (бито): {cards}", "Бито: {cards}"),
    "Took": ("{who} takes {n} {cards_word}", "{who} берёт {n} {cards_acc}"),
    "TookCards": ("{who} takes {cards}", "{who} берёт {cards}"),
    "Drew": ("{who} draws {n}", "{who} добирает {n}"),
    "DrewCards": ("{who} draws {cards}", "{who} добирает {cards}"),
    "Rebounded": ("{n} {cards_word} shuffled back into the stock",
                  "{n} {cards_word} замешаны в колоду"),
    "Unlocked": ("{who}: {n} locked opened", "{who}: открыто закрытых {n}"),
    "UnlockedCards": ("{who} unlocks {cards}", "{who} открывает {cards}"),
    "HandsRotated": ("Hands pass to the left", "Карты переходят к игроку слева"),
    "PlayerOut": ("{who} is out", "{who} выходит"),
    "Conceded": ("{who} gives the game up", "{who} сдаётся"),
    "Left": ("{who} leaves the table; the hand goes to the discard: {cards}",
             "{who} уходит из-за стола; карты в отбой: {cards}"),
    "GameOver": ("Game over", "Партия окончена"),
    "GameOverDurak": ("The durak: {who}", "Дурак: {who}"),
    "GameOverDurakPogony": ("The durak: {who}, with {pogony} epaulette(s)",
                            "Дурак: {who}, погон: {pogony}"),
    "GameOverDraw": ("The game is a draw", "Ничья"),
    "GameOverWinners": ("Winner: {who}", "Победитель: {who}"),
    "Scores": ("{line} (scores: {scores})", "{line} (очки: {scores})"),
    # pre-game phases (наборный, круглый, крестовый)
    "TurnedUpLayout": ("Face up: {card}", "Открыта: {card}"),
    "TurnedUp": ("{who} turns {card}", "{who} открывает {card}"),
    "Laid": ("{card} stays face up", "{card} остаётся на столе"),
    "Captured": ("{who} takes {target} with {card}", "{who} забирает {target} картой {card}"),
    "Swept": ("{who} takes the rest: {n} {cards_word}",
              "{who} забирает остальные: {n} {cards_acc}"),
    "SweptCards": ("{who} takes the rest: {cards}", "{who} забирает остальные: {cards}"),
    "PlacedFirst": ("{whom} gets {card}", "{whom}: {card}"),
    "Placed": ("{card} → {whom}", "{card} → {whom}"),
    "ChainPassed": ("{who} takes {took}, {card} → {whom}", "{who} берёт {took}, {card} → {whom}"),
}


def cards_word(lang: str, n: int, *, accusative: bool = False) -> str:
    """"card" with a count: one card, 2 cards; 1 карта, 2 карты, 5 карт, 21 карта; as the
    object of a verb (`accusative`, «берёт 1 карту», «21 карту») only the singular differs."""
    if lang != "ru":
        return "card" if n == 1 else "cards"
    if n % 10 == 1 and n % 100 != 11:
        return "карту" if accusative else "карта"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "карты"
    return "карт"


def line(lang: str, key: str, **fields: object) -> str:
    """The catalogue's `key` in `lang`, filled in (`n` also brings its `cards_word`, and
    `cards_acc` for a count that is a verb's object)."""
    text = LINES[key][LANGS.index(lang)]
    count = fields.get("n")
    if isinstance(count, int):
        fields = {"cards_word": cards_word(lang, count),
                  "cards_acc": cards_word(lang, count, accusative=True), **fields}
    return text.format(**fields)


class EventLines:
    """One reader's way of telling engine events: its language, names, card and suit text.

    `me` is the seat whose own draws are shown card by card (-1: nobody's); `detail` lists
    the cards of a take or a discard instead of counting them.
    """

    def __init__(self, lang: str, who: Callable[[int], str], card: Callable[[int], str],
                 suit: Callable[[int], str], *, me: int = -1, detail: bool = False) -> None:
        if lang not in LANGS:
            raise ValueError(f"language {lang!r} is not one of {', '.join(LANGS)}")
        self.lang = lang
        self.who = who
        self.card = card
        self.suit = suit
        self.me = me
        self.detail = detail

    def cards(self, cards: Sequence[int]) -> str:
        return " ".join(self.card(c) for c in cards)

    def __call__(self, event: E.Event) -> str | None:
        """The event's line; None for an event not worth one."""
        if isinstance(event, E.GameOver) and self.detail:
            return self._game_over(event)
        key, fields = self.describe(event)
        return line(self.lang, key, **fields)

    def describe(self, event: E.Event) -> tuple[str, dict[str, object]]:
        """The catalogue key and the fields of the event's line."""
        who, card, cards = self.who, self.card, self.cards
        if isinstance(event, E.Dealt):
            return "Dealt", {"who": who(event.dealer)}
        if isinstance(event, E.TrumpRevealed):
            if event.card >= 0 and event.suit >= BLACK_PAIR:
                # a joker turned as trump: its colour's two suits are trump
                return "TrumpPair", {"card": card(event.card), "suit": self.suit(event.suit)}
            if event.card >= 0:
                return "TrumpRevealed", {"card": card(event.card)}
            if event.suit == NO_SUIT:
                return "NoTrump", {}
            return "TrumpSuit", {"suit": self.suit(event.suit)}
        if isinstance(event, E.TrumpReinserted):
            return "TrumpReinserted", {"card": card(event.card)}
        if isinstance(event, E.TrumpNamed):
            return "TrumpNamed", {"who": who(event.seat), "suit": self.suit(event.suit)}
        if isinstance(event, E.HiddenTrumpRevealed):
            return "HiddenTrumpRevealed", {"card": card(event.card)}
        if isinstance(event, E.PersonalTrump):
            return "PersonalTrump", {"who": who(event.seat), "card": card(event.card)}
        if isinstance(event, E.TrumpSwapped):
            return "TrumpSwapped", {"card": card(event.card), "old": card(event.old_card)}
        if isinstance(event, E.SixDealt):
            return "SixDealt", {"who": who(event.seat), "suit": self.suit(event.suit)}
        if isinstance(event, E.Claimed):
            if event.card < 0:
                return "ClaimedNone", {"who": who(event.seat)}
            return "Claimed", {"who": who(event.seat), "card": card(event.card)}
        if isinstance(event, E.FirstAttacker):
            return ("FirstAttackerLot" if event.by_lot else "FirstAttacker",
                    {"who": who(event.seat)})
        if isinstance(event, E.BoutStarted):
            return "BoutStarted", {"who": who(event.attacker), "whom": who(event.defender)}
        if isinstance(event, E.Led):
            return "Led", {"who": who(event.seat), "cards": cards(event.cards)}
        if isinstance(event, E.StockLeadDeclared):
            return "StockLeadDeclared", {"who": who(event.seat)}
        if isinstance(event, E.StockLed):
            return "StockLed", {"who": who(event.seat), "card": card(event.card)}
        if isinstance(event, E.ThrewIn):
            return "ThrewIn", {"who": who(event.seat), "card": card(event.card)}
        if isinstance(event, E.Beat):
            return "Beat", {"who": who(event.seat), "card": card(event.card),
                            "attack": card(event.attack_card)}
        if isinstance(event, E.Covered):  # верю не верю: the card only where it is known
            if event.card >= 0:
                return "CoveredMine", {"who": who(event.seat), "card": card(event.card),
                                       "attack": card(event.attack_card)}
            return "Covered", {"who": who(event.seat), "attack": card(event.attack_card)}
        if isinstance(event, E.Doubted):
            return "Doubted", {"who": who(event.seat), "attack": card(event.attack_card)}
        if isinstance(event, E.DoubtSettled):
            return ("DoubtTrue" if event.beats else "DoubtFalse",
                    {"card": card(event.card), "attack": card(event.attack_card),
                     "whom": who(event.taker)})
        if isinstance(event, E.Buried):
            return "Buried", {"n": event.n}
        if isinstance(event, E.Exchanged):  # покерный: the cards only where they are known
            if event.given and event.cards:
                return "ExchangedMine", {"who": who(event.seat), "given": cards(event.given),
                                         "cards": cards(event.cards)}
            return "Exchanged", {"who": who(event.seat), "n": event.n}
        if isinstance(event, E.StockShuffled):
            return "StockShuffled", {}
        if isinstance(event, E.SentBack):  # щелковский (B): past the cap
            return "SentBack", {"who": who(event.seat), "card": card(event.card),
                                "whom": who(event.owner)}
        if isinstance(event, E.Transferred):
            return ("TransferredShown" if event.shown else "Transferred",
                    {"who": who(event.seat), "card": card(event.card),
                     "whom": who(event.new_defender)})
        if isinstance(event, E.Misplayed):  # оборотный: a card picked blind did not fit
            return "Misplayed", {"who": who(event.seat), "card": card(event.card)}
        if isinstance(event, E.TakeDeclared):
            return "TakeDeclared", {"who": who(event.seat)}
        if isinstance(event, E.Passed):
            return "Passed", {"who": who(event.seat)}
        if isinstance(event, E.Discarded):
            if self.detail:
                return "DiscardedCards", {"cards": cards(event.cards)}
            return "Discarded", {"n": len(event.cards)}
        if isinstance(event, E.Took):
            if self.detail:
                return "TookCards", {"who": who(event.seat), "cards": cards(event.cards)}
            return "Took", {"who": who(event.seat), "n": len(event.cards)}
        if isinstance(event, E.Drew):
            if event.cards and event.seat == self.me:
                return "DrewCards", {"who": who(event.seat), "cards": cards(event.cards)}
            return "Drew", {"who": who(event.seat), "n": event.n}
        if isinstance(event, E.Rebounded):
            return "Rebounded", {"n": len(event.cards)}
        if isinstance(event, E.Unlocked):
            if event.cards and event.seat == self.me:
                return "UnlockedCards", {"who": who(event.seat), "cards": cards(event.cards)}
            return "Unlocked", {"who": who(event.seat), "n": event.n}
        if isinstance(event, E.HandsRotated):
            return "HandsRotated", {}
        if isinstance(event, E.PlayerOut):
            return "PlayerOut", {"who": who(event.seat)}
        if isinstance(event, E.Conceded):
            return "Conceded", {"who": who(event.seat)}
        if isinstance(event, E.Left):
            return "Left", {"who": who(event.seat), "cards": cards(event.cards)}
        if isinstance(event, E.GameOver):
            return "GameOver", {}
        return self._pre_phase(event)

    def _pre_phase(self, event: E.Event) -> tuple[str, dict[str, object]]:
        """The lines of the pre-game phases (наборный)."""
        who, card = self.who, self.card
        if isinstance(event, E.TurnedUp):
            if event.seat < 0:
                return "TurnedUpLayout", {"card": card(event.card)}
            return "TurnedUp", {"who": who(event.seat), "card": card(event.card)}
        if isinstance(event, E.Laid):
            return "Laid", {"card": card(event.card)}
        if isinstance(event, E.Captured):
            return "Captured", {"who": who(event.seat), "card": card(event.card),
                                "target": card(event.target)}
        if isinstance(event, E.Placed):
            return ("PlacedFirst" if event.seat < 0 else "Placed",
                    {"card": card(event.card), "whom": who(event.onto)})
        if isinstance(event, E.ChainPassed):
            return "ChainPassed", {"who": who(event.seat), "took": card(event.took),
                                   "card": card(event.card), "whom": who(event.to)}
        if isinstance(event, E.Swept):
            if self.detail:
                return "SweptCards", {"who": who(event.seat), "cards": self.cards(event.cards)}
            return "Swept", {"who": who(event.seat), "n": len(event.cards)}
        raise LookupError(f"no line for the engine event {type(event).__name__}")

    def _game_over(self, event: E.GameOver) -> str:
        names = ", ".join
        if event.winners:
            text = line(self.lang, "GameOverWinners", who=names(map(self.who, event.winners)))
        elif event.draw:
            text = line(self.lang, "GameOverDraw")
        elif event.pogony:
            text = line(self.lang, "GameOverDurakPogony", who=names(map(self.who, event.durak)),
                        pogony=event.pogony)
        else:
            text = line(self.lang, "GameOverDurak", who=names(map(self.who, event.durak)))
        if event.scores:
            scores = ", ".join(f"{self.who(s)} {n}" for s, n in enumerate(event.scores))
            text = line(self.lang, "Scores", line=text, scores=scores)
        return text
