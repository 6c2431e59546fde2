"""Why an action was refused, in a form a node can log and a player can read."""

from __future__ import annotations

from enum import Enum


class _Bilingual(Enum):
    """An enum whose values are (English, Russian) texts."""

    @property
    def en(self) -> str:
        text: str = self.value[0]
        return text

    @property
    def ru(self) -> str:
        text: str = self.value[1]
        return text


class Reason(_Bilingual):
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
    SEND_BACK_FIRST = ("too many thrown in: the defender first sends the extra ones back",
                       "подкинуто лишнее: сначала отбивающийся возвращает лишние карты")
    NOT_SENDABLE = ("only an unbeaten thrown-in card goes back, while over the limit",
                    "вернуть можно только непобитую подкинутую карту сверх лимита")
    ALREADY_OUT = ("this player is already out of the game", "этот игрок уже вышел из игры")
    MUST_PASS_ON = ("who cannot beat takes the first card and passes one of his own on",
                    "кто не отбился, забирает первую карту и передаёт дальше свою")
    DOES_NOT_CLIMB = ("that card does not go on the pile: the next card of its suit does",
                      "эта карта не ложится на стопку: нужна следующая той же масти")
    MUST_PLAY = ("this player holds a card that goes on the pile and must lay it",
                 "у игрока есть карта, что ложится на стопку: её надо положить")


class Why(_Bilingual):
    """What exactly is wrong, in the player's terms, where a `Reason` is too general to say it
    (`engine/refusals.py` narrows a refusal to one of these, on refusal only). The texts may
    name numbers of the situation: `{limit}`, `{n}`, `{m}`."""

    NOT_YOUR_LEAD = ("it is not your move: another player leads this bout",
                     "сейчас не ваш ход: заходит другой игрок")
    NOTHING_LED = ("nothing has been led yet: nothing to take, beat or transfer",
                   "ещё никто не зашёл: брать, бить и переводить нечего")
    PASS_BEFORE_LEAD = ("you lead: play a card first; бито comes once it is beaten",
                        "ваш ход: сначала положите карту («бито» — когда её покроют)")
    PASS_DEFENDING = ("you defend: beat the cards or take them (T); attackers say бито",
                      "вы отбиваетесь: побейте карты или возьмите их (T); «бито» — не вам")
    TAKE_NOT_DEFENDER = ("only the defender takes the cards (беру), and you are not defending",
                         "брать карты («беру») может только отбивающийся, а отбиваетесь не вы")
    BEAT_NOT_DEFENDER = ("only the defender beats the attack cards, and you are not defending",
                         "бьёт карты только отбивающийся, а отбиваетесь не вы")
    TRANSFER_NOT_DEFENDER = ("only the defender transfers, and you are not defending",
                             "переводит только отбивающийся, а отбиваетесь не вы")
    BEAT_LOWER = ("that card is lower: beat with a higher one of its suit or a trump",
                  "эта карта младше: бейте старшей той же масти или козырем")
    BEAT_LOWER_TRUMP = ("that trump is lower: only a higher trump beats a trump",
                        "этот козырь младше: козырь бьют только старшим козырем")
    BEAT_WRONG_SUIT = ("a card of another suit beats only if it is a trump",
                       "карта другой масти бьёт, только если она козырь")
    BEAT_NEEDS_TRUMP = ("the attack card is a trump: only a higher trump beats it",
                        "атакующая карта — козырь: её бьёт только старший козырь")
    BEAT_NO_TRUMPS = ("no trumps in this game: only a higher card of its suit beats it",
                      "козырей нет: бить можно только старшей картой той же масти")
    THROW_IN_OFF = ("in these rules nobody throws in", "в этих правилах не подкидывают")
    THROW_AFTER_TAKE_OFF = ("the defender said «беру»: these rules allow no throw-in after it",
                            "отбивающийся сказал «беру», а вдогонку здесь не подкидывают")
    THROW_AFTER_BEAT_ONLY = ("here cards are thrown in only once all on the table are beaten",
                             "здесь подкидывают, только когда все карты на столе побиты")
    THROW_LIMIT = ("the bout has its limit of {limit} attack cards: no more throw-ins",
                   "в коне уже предельное число карт ({limit}): больше не подкинуть")
    THROW_DEFENDER_CARDS = ("the defender holds {n} cards, {m} still to beat: no more throw-ins",
                            "у отбивающегося карт: {n}, непобитых: {m} — больше не подкинуть")
    THROW_NEIGHBOURS_ONLY = ("in these rules only the defender's neighbours throw in",
                             "в этих правилах подкидывают только соседи отбивающегося")
    THROW_OPPONENTS_ONLY = ("only the defender's opponents throw in here, not his teammates",
                            "подкидывают только противники отбивающегося, не напарники")
    THROW_IN_TURN = ("throw-ins go round in turn, and it is another player's turn",
                     "подкидывают по очереди, и сейчас очередь другого игрока")
    THROW_ROOM = ("only {n} more attack cards fit in this bout",
                  "в этот кон можно подкинуть ещё карт: {n}")
    LEAD_PAST_DEFENDER = ("the defender holds only {n} cards: lead at most {n}",
                          "у отбивающегося карт на руке: {n} — больше класть нельзя")
    LEAD_PAST_LIMIT = ("this bout takes at most {limit} attack cards",
                       "в этом коне можно положить карт не больше {limit}")
    TRANSFER_OFF = ("these rules have no transfer (перевод)", "в этих правилах не переводят")
    SHOW_OFF = ("these rules have no transfer by showing a trump",
                "в этих правилах не переводят показом козыря")
    TRANSFER_AFTER_TAKE = ("you have said «беру»: no transfer now",
                           "вы уже сказали «беру»: переводить поздно")
    TRANSFER_AFTER_BEAT = ("a transfer comes before the first beat, and a card is beaten",
                           "переводят, пока ни одна карта не побита, а карта уже побита")
    TRANSFER_MIXED_RANKS = ("the unbeaten cards are of different ranks: no transfer",
                            "непобитые карты разного достоинства: перевести нельзя")
    TRANSFER_RANK = ("a transfer needs a card of the attack card's rank",
                     "перевести можно только картой того же достоинства, что и атакующая")
    TRANSFER_NEXT_TOO_FEW = ("the next defender holds {n} cards: too few for {m} to beat",
                             "у следующего отбивающегося карт: {n}, а бить пришлось бы {m}")
    TRANSFER_LIMIT = ("a transfer adds a card, and this bout may have only {limit}",
                      "перевод добавляет карту, а в этом коне их может быть не больше {limit}")
    TRANSFER_NOBODY = ("there is nobody to transfer to: the cards would come back to you",
                       "переводить некому: карты вернулись бы к вам")


class IllegalAction(Exception):
    """An action the rules refuse; the state it was tried on is unchanged. `why` (with its
    `fields`) says exactly what is wrong where the engine could tell (`engine/refusals.py`);
    `reason` is the general code the wire and the logs carry."""

    def __init__(self, reason: Reason, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail
        self.why: Why | None = None
        self.fields: dict[str, int] = {}
        super().__init__(f"{reason.name}: {reason.en}" + (f" ({detail})" if detail else ""))

    @property
    def code(self) -> str:
        return self.reason.name

    def message(self, lang: str = "en") -> str:
        """The most specific explanation known, in English or Russian."""
        if self.why is not None:
            text = self.why.ru if lang == "ru" else self.why.en
            return text.format(**self.fields)
        return self.reason.ru if lang == "ru" else self.reason.en
