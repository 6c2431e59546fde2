"""Why an action was refused, in a form a node can log and a player can read."""

from __future__ import annotations

from enum import Enum


class Reason(Enum):
    """Reason codes, each with its English and Russian explanation."""

    WRONG_PHASE = ("this action does not fit the current phase of the game",
                   "это действие не подходит к текущей фазе игры")
    NOT_YOUR_TURN = ("it is not this seat's turn to do that",
                     "сейчас этот игрок так ходить не может")
    NOT_IN_HAND = ("the card is not in this player's hand", "этой карты нет на руке у игрока")
    NOT_SAME_RANK = ("a lead of several cards must be of one rank",
                     "несколько карт можно положить только одного достоинства")
    TOO_MANY_CARDS = ("the bout limit does not allow that many attack cards",
                      "лимит кона не позволяет столько карт")
    RANK_NOT_ON_TABLE = ("only ranks already on the table can be thrown in",
                         "подкидывать можно только достоинства, что уже на столе")
    THROW_MUST_BEAT = ("a thrown-in card must beat the card the defender last beat with",
                       "подкинутая карта должна бить карту, которой отбился игрок")
    THROW_IN_NOT_ALLOWED = ("this player may not throw in now",
                            "этому игроку сейчас нельзя подкидывать")
    ALREADY_COVERED = ("that attack card is already covered", "эта карта уже покрыта")
    NO_SUCH_TARGET = ("there is no such attack card on the table", "такой карты на столе нет")
    DOES_NOT_BEAT = ("that card does not beat the attack card", "эта карта не бьёт атакующую")
    NOTHING_TO_TAKE = ("there is no uncovered card to take", "нет непокрытых карт, чтобы брать")
    ALREADY_TAKING = ("the defender has already said «беру»", "отбивающийся уже сказал «беру»")
    TRANSFER_NOT_ALLOWED = ("a transfer is not allowed now", "перевести сейчас нельзя")
    TRANSFER_CAPACITY = ("the next defender does not hold enough cards for a transfer",
                         "у следующего не хватает карт на перевод")
    SHOW_NOT_ALLOWED = ("that card cannot be shown to transfer",
                        "эту карту нельзя показать для перевода")
    ALREADY_PASSED = ("this player has already passed", "этот игрок уже спасовал")
    BAD_ACTION = ("the action is malformed", "действие задано неверно")
    BAD_CHANCE = ("the chance outcome is not possible here", "такой исход жребия здесь невозможен")
    WRONG_CLAIM = ("that is not this player's lowest trump", "это не младший козырь игрока")
    GAME_OVER = ("the game is over", "партия окончена")
    LEAD_NOT_ALLOWED = ("this variant does not allow that lead",
                        "в этом варианте так ходить нельзя")
    FACE_DOWN_ONLY = ("in this variant a defence card is laid face down",
                      "в этом варианте отбиваются картой в закрытую")
    NOT_FACE_DOWN = ("there is no face-down card there to doubt",
                     "там нет закрытой карты, чтобы сомневаться")
    CANNOT_DOUBT = ("this player may not say «сомневаюсь» now",
                    "этому игроку сейчас нельзя сказать «сомневаюсь»")
    NO_EXCHANGE = ("the defender may not exchange cards with the stock now",
                   "сейчас нельзя поменять карты с колодой")
    SEND_BACK_FIRST = ("more cards are thrown in than the bout allows: the defender first sends "
                       "the extra ones back", "подкинуто больше, чем можно за кон: сначала "
                       "отбивающийся возвращает лишние")
    NOT_SENDABLE = ("only a thrown-in card not yet beaten goes back, and only while more are "
                    "thrown in than the bout allows", "вернуть можно только непобитую "
                    "подкинутую карту и только пока подкинуто больше, чем можно за кон")
    ALREADY_OUT = ("this player is already out of the game", "этот игрок уже вышел из игры")
    MUST_PASS_ON = ("a defender who does not beat takes the first card and passes on one of his "
                    "own", "кто не отбился, забирает первую карту и передаёт дальше свою")

    @property
    def en(self) -> str:
        return self.value[0]

    @property
    def ru(self) -> str:
        return self.value[1]


class IllegalAction(Exception):
    """An action the rules refuse; the state it was tried on is unchanged."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        super().__init__(f"{reason.name}: {reason.en}" + (f" ({detail})" if detail else ""))

    @property
    def code(self) -> str:
        return self.reason.name

    def message(self, lang: str = "en") -> str:
        return self.reason.ru if lang == "ru" else self.reason.en
