"""The catalogue's games that are not attack/defend Durak (`variants-other-games.md`): which
of them an engine of their own plays, with names, source and rules for `durak rules`.

The attack/defend presets are `engine/presets.py`; these have their own option records (a
`RuleSet`'s knobs do not describe them), so they are listed apart.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from p2p_durak.engine.games.chukhonsky.rules import ChukhonskyRules

COMPENDIUM = "000_0a1bcdd496bc6662.txt"
APP = "001_c746c7bb87124419.txt"


@dataclass(frozen=True)
class GamePreset:
    id: str
    name_ru: str
    name_en: str
    source: str
    engine: str  # the catalogue's `game_engine`
    summary_en: str
    summary_ru: str
    players: tuple[int, ...]
    works: bool
    rules_en: tuple[str, ...] = ()  # the game's rules as played, one paragraph each
    rules_ru: tuple[str, ...] = ()
    options: object | None = None  # the default option record (a frozen dataclass)
    # what is still missing beyond the engine (as `Preset.unfinished`): such a game plays in
    # `durak simulate` and `durak arena` but is not offered at a table
    unfinished: str = ""

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en

    def description(self, lang: str) -> str:
        return self.summary_ru if lang == "ru" else self.summary_en

    def rules(self, lang: str) -> tuple[str, ...]:
        return self.rules_ru if lang == "ru" else self.rules_en

    def option_values(self) -> list[tuple[str, object]]:
        if self.options is None:
            return []
        return [(f.name, getattr(self.options, f.name)) for f in fields(self.options)]  # type: ignore[arg-type]


_CHUKHONSKY_EN = (
    "Setup. 36 or 52 cards, 2-6 players, no trump. The first dealer is chosen by lot, later "
    "the durak deals. The whole deck is dealt one card at a time clockwise from the dealer's "
    "left (some get one card more; option: the remainder lies face down out of play).",
    "First move. Game 1: the player left of the dealer; later games под дурака (the player "
    "right of the durak, the default) or из-под дурака (left of him), chosen before play. He "
    "leads any card.",
    "Play. Each next player clockwise must lay the next card of the pile's suit (8 -> 9 -> "
    "10 ...); who holds it must lay it (option: any higher card of the suit; option: laying "
    "is not compulsory).",
    "Ace. Who lays an ace discards the whole pile and leads again (any card); an ace as his "
    "last card takes him out, and the next player leads.",
    "Stuck. A player without the needed card takes the top card of the pile into his hand "
    "(face up: everybody saw it), the rest goes to the discard, and the next player "
    "clockwise starts a new ladder.",
    "End. Players without cards are out. The last player holding cards is the durak "
    "(«чухонский дурак»).",
    "Not in the source. Once no card can go on another (no ace left, every card's next one "
    "discarded), every lead is taken by the next player: the rest is forced and the engine "
    "plays it at once; with 3 or 5 players it can go round for ever, and then the player "
    "holding the most cards is the durak (several: a draw; option: always a draw). A game "
    "of lone cards taken back 1000 times in a row ends the same way.",
)
_CHUKHONSKY_RU = (
    "Раздача. 36 или 52 карты, 2–6 игроков, козырей нет. Первого сдатчика определяет жребий, "
    "потом сдаёт дурак. Сдаётся вся колода по одной карте по часовой стрелке, начиная слева "
    "от сдатчика (кому-то достаётся на карту больше; вариант: остаток лежит в закрытую вне "
    "игры).",
    "Первый ход. В первой игре — игрок слева от сдатчика; потом под дурака (игрок справа от "
    "дурака, по умолчанию) или из-под дурака (слева от него), по уговору. Ходить можно любой "
    "картой.",
    "Игра. Следующий по часовой стрелке кладёт следующую по старшинству карту той же масти "
    "(8 → 9 → 10 …); у кого она есть, тот обязан её положить (вариант: любую старшую той же "
    "масти; вариант: класть не обязательно).",
    "Туз. Кто положит туза, скидывает всю стопку в отбой и снова ходит первым (любой "
    "картой); туз последней картой выводит его из игры, ходит следующий.",
    "Нет карты. Кто не может положить, забирает себе верхнюю карту стопки (её видели все), "
    "остальное уходит в отбой, и следующий по часовой стрелке начинает новую лесенку.",
    "Конец. Игрок без карт выходит. Последний, у кого остались карты, — «чухонский дурак».",
    "Нет в источнике. Когда ни одна карта больше не ложится на другую (тузов нет, следующие "
    "карты в отбое), каждый ход забирает следующий игрок: остаток игры вынужден, и движок "
    "доигрывает его сразу; при 3 или 5 игроках он может идти по кругу без конца — тогда "
    "дурак тот, у кого больше карт (у нескольких — ничья; вариант: всегда ничья). Так же "
    "кончается игра, где одиночную карту забирают 1000 раз подряд.",
)

_PENDING = (
    ("armyansky_2", "Дурак армянский – второй вариант", "Armenian durak, second variant",
     "trick_taking", (2,), COMPENDIUM),
    ("bez_nazvaniya", "Дурак без названия", "Durak without a name", "beat_chain",
     (2, 3, 4, 5, 6), COMPENDIUM),
    ("kitaysky", "Дурак китайский", "Chinese durak", "beat_chain", (2, 3, 4, 5, 6), COMPENDIUM),
    ("pasyansny", "Дурак пасьянсный", "Patience durak", "rank_sequence", (2, 3, 4, 5, 6),
     COMPENDIUM),
    ("polsky", "Дурак польский", "Polish durak", "cover_chain", (2, 3, 4, 5, 6), COMPENDIUM),
    ("cheshsky", "Дурак чешский", "Czech durak", "shedding", (2,), COMPENDIUM),
    ("skitgubbe", "Скитгаб (Skitgubbe, Mattis)", "Skitgubbe", "two_phase", (2, 3, 4),
     COMPENDIUM),
    ("app_polsky", "Польский дурак", "Polish durak (app)", "cover_chain", (2, 3, 4, 5, 6), APP),
)

GAMES: dict[str, GamePreset] = {
    "chukhonsky": GamePreset(
        "chukhonsky", "Дурак чухонский", "Chukhonsky durak (suit ladder)",
        f"{COMPENDIUM}: «Дурак чухонский»", "suit_ladder",
        "All cards dealt, no trump; climb one suit card by card to the ace, which clears the "
        "pile; who cannot follow takes the top card. The last with cards is the durak.",
        "Сдаются все карты, козырей нет; лесенкой по масти до туза, который сбрасывает "
        "стопку; кто не может положить, забирает верхнюю карту. Последний с картами — дурак.",
        (2, 3, 4, 5, 6), True, _CHUKHONSKY_EN, _CHUKHONSKY_RU, ChukhonskyRules(),
        unfinished="no networked table (mental-poker deck) or screen yet"),
    **{gid: GamePreset(gid, ru, en, f"{source}: «{ru}»", engine,
                       f"A different game ({engine}): no engine yet.",
                       f"Другая игра ({engine}): движка пока нет.", players, False)
       for gid, ru, en, engine, players, source in _PENDING},
}


def get_game(game_id: str) -> GamePreset | None:
    return GAMES.get(game_id)
