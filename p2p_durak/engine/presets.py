"""Named presets: the catalogue's variant ids, each a RuleSet with its source.

Every attack/defend variant of shared/rules is listed, so the UI and `durak rules` can show
the whole catalogue; a preset whose knobs the engine does not play yet reports them as
pending (`Preset.pending`) instead of pretending to work.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product
from typing import Any

from p2p_durak.engine.rules import (
    BLIND_PENALTY,
    CHALLENGE_RULES,
    DUMMY_BOUT_ATTACKER,
    DUMMY_GAME_FIRST_ATTACKER,
    DUMMY_PLAYS_BOUT_ATTACKER,
    DUMMY_PLAYS_GAME_FIRST_ATTACKER,
    SWAP_TWO_RULES,
    RuleError,
    RuleSet,
    pending_knobs,
    validate,
)
from p2p_durak.engine.tables import STOCK_LEAD_FIRST_ONLY, THROWN_IN_ONLY

APP = "001_c746c7bb87124419.txt"
COMPENDIUM = "000_0a1bcdd496bc6662.txt"

# The compendium template differs from the app rules in these knobs (baseline.md §6).
_COMPENDIUM_BASE: dict[str, Any] = {
    "lead_rule": "single",
    "throw_in_timing": "after_beat",
    "throw_in_after_take": False,
    "refill_order": "attacker_then_clockwise",
}


@dataclass(frozen=True)
class Preset:
    id: str
    name_ru: str
    name_en: str
    source: str  # seed file and section
    summary_en: str
    summary_ru: str
    rules: RuleSet
    players: tuple[int, ...] = (2, 3, 4, 5, 6)
    # what is still missing beyond the engine (the networked table, the screen, the bots);
    # such a preset plays in simulations and tests but is not offered at a table
    unfinished: str = ""

    @property
    def people(self) -> tuple[int, ...]:
        """How many people a table of it seats (`players` counts the engine's seats: с
        болваном, the dummy's too)."""
        return tuple(n - 1 for n in self.players) if self.rules.dummy_hand else self.players

    @property
    def pending(self) -> list[str]:
        return pending_knobs(self.rules)

    @property
    def works(self) -> bool:
        try:
            validate(self.rules)
        except RuleError:
            return False
        return True

    def description(self, lang: str) -> str:
        return self.summary_ru if lang == "ru" else self.summary_en

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en


def _app(**overrides: Any) -> RuleSet:
    return RuleSet(**overrides)


def _comp(**overrides: Any) -> RuleSet:
    return RuleSet(**{**_COMPENDIUM_BASE, **overrides})


_P: list[Preset] = [
    # ---- the app's rules and options (001) ----------------------------------------------
    Preset("app_podkidnoy", "Подкидной", "Throw-in durak (app rules)", f"{APP}: whole page",
           "The product default. Lead one card or several of one rank; anyone but the defender "
           "throws in ranks on the table until the bout closes, also «вдогонку» after «беру»; "
           "at most 6 attack cards a bout (5 in the first), never more than the defender holds.",
           "Правила по умолчанию. Ходят одной картой или несколькими одного достоинства; все, "
           "кроме отбивающегося, подкидывают достоинства со стола, пока кон не закончен, и "
           "«вдогонку» после «беру»; не больше 6 карт за кон (5 в первом) и не больше, чем у "
           "отбивающегося.",
           _app()),
    Preset("app_prostoy", "Простой", "Simple durak", f"{APP}: «Простой»",
           "No throw-ins: the bout is only the opening lead (one card or several of one rank).",
           "Подкидывать нельзя: кон — это только первый ход (одна карта или несколько одного "
           "достоинства).",
           _app(throw_in=False, throw_in_after_take=False)),
    Preset("app_perevodnoy", "Переводной", "Transfer durak", f"{APP}: «Переводной»",
           "Before covering anything the defender may pass the attack on with a card of the "
           "same rank, if the next player holds enough cards for all of them.",
           "Пока ничего не покрыто, отбивающийся может перевести картой того же достоинства, "
           "если у следующего хватает карт на все переведённые.",
           _app(transfer=True)),
    Preset("app_perevod_pokazom", "Перевод показом", "Transfer by showing a trump",
           f"{APP}: «Переводной», перевод показом",
           "Transfer durak where showing the trump of the attack rank is enough: the card stays "
           "in hand; each trump once a bout.",
           "Переводной, где достаточно показать козырь того же достоинства: карта остаётся на "
           "руке; каждым козырем — один раз за кон.",
           _app(transfer=True, transfer_by_showing="forward")),
    Preset("app_komandy", "2 на 2: командами", "Teams (2v2, 3v3)", f"{APP}: «2 на 2: командами»",
           "Partners sit in alternate seats; only the defender's opponents throw in, transfers "
           "go only to an opponent; a team whose players are all out wins.",
           "Напарники сидят через одного; подкидывают только соперники отбивающегося, переводят "
           "только на соперника; вышли все игроки команды — она выиграла.",
           _app(teams="2v2", min_players=4, max_players=4, attack_target="next_active_opponent",
                throw_in_by="opponents_of_defender", transfer_target="next_active_opponent",
                loser_rule="team_last"),
           players=(4,)),
    Preset("app_komandy_3v3", "3 на 3: командами", "Teams 3v3", f"{APP}: «2 на 2: командами»",
           "Three against three in alternate seats, with the team rules of 2 на 2.",
           "Тройка на тройку через одного, по правилам командной игры.",
           _app(teams="3v3", min_players=6, max_players=6, attack_target="next_active_opponent",
                throw_in_by="opponents_of_defender", transfer_target="next_active_opponent",
                loser_rule="team_last"),
           players=(6,)),
    Preset("app_pogony", "Погоны", "Epaulettes", f"{APP}: «Погоны»",
           "A durak finished off with a six gets an epaulette, with two sixes one on each "
           "shoulder. Play is unchanged.",
           "Если дурака добили шестёркой — ему вешают погон, двумя шестёрками — погоны на оба "
           "плеча. Игра не меняется.",
           _app(pogony_sixes=True)),
    Preset("app_seriya", "Серия партий", "A series of games", f"{APP}: серия партий",
           "The durak deals the next game and his right neighbour attacks him first.",
           "Следующую сдаёт дурак, и первым ходят под него — ходит сосед справа от дурака.",
           _app(series="series")),
    Preset("app_yaponsky", "Японский: пики пиками", "Japanese: spades by spades",
           f"{APP}: «Японский»",
           "Diamonds are always trump; a spade is beaten only by a higher spade, not even by a "
           "trump, and spades beat no other suit.",
           "Козырь всегда бубны; пику бьёт только старшая пика, даже козырь её не берёт, а сами "
           "пики другие масти не бьют.",
           _app(trump_rule="fixed_suit:diamonds", untrumpable_suits=("spades",))),
    Preset("app_potayny", "Потайной козырь", "Hidden trump", f"{APP}: «Потайной козырь»",
           "A second card lies face down under the trump card; when the stock and the trump "
           "card are gone it is turned and its suit is trump to the end.",
           "Под открытым козырем лежит закрытая карта; когда колода и козырь кончились, она "
           "открывается и становится новым козырем до конца партии.",
           _app(trump_change="hidden_second"), players=(2, 3, 4, 5)),
    Preset("app_dlinny", "Длинный дурак", "Long durak", f"{APP}: «Длинный дурак»",
           "A match of games without sixes: each player is dealt a six once, and its suit is his "
           "own trump; a card is beaten by the defender's trump. The holder of the six of "
           "spades leads first, then the durak's left neighbour. Throw-ins go strictly in turn, "
           "clockwise. After each game the durak lays out the next card of his suit, 7 up to "
           "the ace, out of play: from the ten his hand is 5 cards, from the jack 4, the queen "
           "3, the king 2. Whoever lays out his ace is the long durak and the match is over.",
           "Серия партий без шестёрок: каждому раз сдают по шестёрке, её масть — его личный "
           "козырь; бьёт козырь отбивающегося. Первым ходит тот, у кого шестёрка пик, дальше — "
           "из-под дурака. Подкидывают строго по очереди по часовой стрелке. После партии дурак "
           "выкладывает следующую карту своей масти, от семёрки до туза, она выходит из игры: с "
           "десятки ему сдают 5 карт, с валета 4, с дамы 3, с короля 2. Выложил туза — длинный "
           "дурак, серия окончена.",
           _app(deck_remove=("6S", "6C", "6D", "6H"), trump_rule="personal_six",
                trump_perspective="defender", throw_in_order="strict_clockwise",
                series="series", series_state="ladder", match_end="ladder_reaches_A",
                first_attacker_next_game="iz_pod_durak", min_players=2, max_players=4),
           players=(2, 3, 4)),
    Preset("app_korol_govno", "Король-говно", "King and Shit", f"{APP}: «Король-говно»",
           "A series of throw-in games with titles. After the first game the players are "
           "titled by the order they went out: King, Prince, then Executioner, Soldier, Thief, "
           "Jester in the middle, and «Говно» (Shit) last. From then on the King names the "
           "trump after seeing his hand, Говно deals and leads, and the durak swaps titles "
           "with Говно. Whoever is King at the end wins the series.",
           "Серия подкидного со званиями. После первой партии звания по порядку выхода: "
           "Король, Принц, в середине — Палач, Солдат, Вор, Шут, последний — Говно. Дальше "
           "козырь назначает Король, посмотрев свои карты, сдаёт и первым ходит Говно, а "
           "дурак меняется званием с Говном. Выигрывает тот, кто Король в конце серии.",
           _app(series="series", series_state="titles", trump_rule="named_by_king",
                dealer_next_game="title_govno", first_attacker_next_game="title_govno",
                post_game_swap="durak_with_govno", title_reassign="after_game_1_only")),
    # ---- the compendium (000) ------------------------------------------------------------
    Preset("podkidnoy", "Дурак подкидной", "Throw-in durak (compendium)",
           f"{COMPENDIUM}: «Дурак подкидной»",
           "The compendium template: single-card leads; throw-ins after the defender beats; "
           "refill from the attacker clockwise.",
           "Шаблон сборника: ходят одной картой; подкидывают после того, как отбились; "
           "добирают от ходившего по часовой стрелке.",
           _comp()),
    Preset("prostoy", "Дурак простой", "Simple durak (compendium)",
           f"{COMPENDIUM}: «Дурак простой»",
           "One attack card a bout, no throw-ins; the attacker then the defender draw.",
           "Один ход — одна карта, подкидывать нельзя; добирает ходивший, затем отбивавшийся.",
           _comp(throw_in=False)),
    Preset("perevodnoy", "Дурак переводной", "Transfer durak (compendium)",
           f"{COMPENDIUM}: «Дурак переводной»",
           "The defender may pass the attack on with a card of the same rank.",
           "Отбивающийся может перевести карты следующему картой того же значения.",
           _comp(transfer=True)),
    Preset("perevodnoy_2", "Дурак переводной 2", "Transfer durak 2",
           f"{COMPENDIUM}: «Дурак переводной 2»",
           "Transfers also against thrown-in cards after beating; the new defender inherits "
           "the whole table.",
           "Переводить можно и подкинутые карты после отбоя; новый отбивающийся получает весь "
           "стол.",
           _comp(transfer=True, transfer_window="any_unbeaten_same_rank")),
    Preset("yaponsky", "Дурак японский", "Japanese durak", f"{COMPENDIUM}: «Дурак японский»",
           "Diamonds always trump; spades beaten only by a higher spade.",
           "Бубны всегда козыри; пики бьются только старшими пиками.",
           _comp(trump_rule="fixed_suit:diamonds", untrumpable_suits=("spades",))),
    Preset("potayny", "Дурак потайной", "Hidden trump durak", f"{COMPENDIUM}: «Дурак потайной»",
           "A face-down card under the trump card becomes trump when the stock runs out.",
           "Закрытая карта под козырем становится козырем, когда колода кончается.",
           _comp(trump_change="hidden_second"), players=(2, 3, 4, 5)),
    Preset("beskozyrny", "Дурак бескозырный", "No-trump durak",
           f"{COMPENDIUM}: «Дурак бескозырный»",
           "No trump suit; only a higher card of the same suit beats.",
           "Козырей нет; бьёт только старшая карта той же масти.",
           _comp(trump_rule="none", beat_rule="same_suit_only",
                 first_attacker_first_game="lowest_card")),
    Preset("kozyrny", "Дурак козырной", "Trump-swap durak", f"{COMPENDIUM}: «Дурак козырной»",
           "After every successful defence the bout's last card swaps places with the trump "
           "card under the stock, and its suit is the new trump; a take changes nothing.",
           "После каждого отбоя последняя карта кона меняется местами с козырем под колодой, "
           "и её масть становится новым козырем; если отбивающийся взял, козырь не меняется.",
           _comp(trump_change="swap_on_defence")),
    Preset("amerikansky", "Дурак американский", "American durak",
           f"{COMPENDIUM}: «Дурак американский»",
           "Throw-in durak in which the defender, once every card on the table is beaten, may "
           "throw in to himself a card of a rank on the table (his own beating cards too) and "
           "must then beat it; the others may then throw in again. The bout ends when nobody, "
           "the defender included, adds a card.",
           "Подкидной, в котором отбившийся от всех карт на столе может подкинуть самому себе "
           "карту того же достоинства, что лежат на столе (и своих отбивающих), и должен её "
           "отбить; после этого остальные снова могут подкидывать. Кон кончается, когда никто, "
           "в том числе отбивающийся, больше не подкидывает.",
           _comp(self_throw_in="after_all_beaten")),
    Preset("dorozhny", "Дурак дорожный", "Road durak", f"{COMPENDIUM}: «Дурак дорожный»",
           "The whole deck is dealt; the last dealt card shows the trump and stays in its "
           "hand; nobody draws. After each beat the others may throw in only a card that beats "
           "the defender's beating card: a higher one of its suit, or any trump over a plain "
           "card.",
           "Сдаётся вся колода; последняя сданная карта показывает козырь и остаётся на руке; "
           "никто не добирает. После каждого отбоя подкидывают только карту, которая бьёт "
           "карту отбившегося: старшую той же масти или любой козырь, если она не козырная.",
           _comp(deal_mode="whole_deck", trump_rule="last_dealt_card", refill_rule="none",
                 throw_in_match="beats_last_defence")),
    Preset("dvukhkozyrny", "Дурак двухкозырной", "Two-trump durak",
           f"{COMPENDIUM}: «Дурак двухкозырной»",
           "After the deal one card per player is turned face up: its suit is that player's own "
           "trump. The defender's trump decides every beat; the attacker's own trump is a plain "
           "suit against him. The lowest card of one's own trump leads first. Best for two.",
           "После сдачи каждому открывают по карте: её масть — его личный козырь. Бьют по "
           "козырю отбивающегося; козырь ходящего для него — обычная масть. Первым ходит "
           "младший свой козырь. Лучше играть вдвоём.",
           _comp(trump_rule="per_player_turned", trump_perspective="defender",
                 trump_indicators="out_of_play", first_attacker_first_game="lowest_own_trump"),
           players=(2, 3, 4, 5)),
    Preset("nevidimy", "Дурак невидимый", "Invisible durak", f"{COMPENDIUM}: «Дурак невидимый»",
           "Nobody turns the trump card: the deal looks at the bottom card of the stock and "
           "announces only its suit, which is trump. The card stays face down and is drawn "
           "last. Over the network the dealer's seat sees it and proves the suit.",
           "Козырь не открывают: сдающий смотрит нижнюю карту колоды и объявляет только её "
           "масть — она козырная. Карта остаётся закрытой и достаётся последней. По сети её "
           "видит место сдающего и доказывает масть.",
           _comp(trump_rule="bottom_suit_announced", dealer_first_game="outsider",
                 dealer_next_game="outsider"),
           players=(2, 3, 4, 5)),
    Preset("magadansky", "Дурак магаданский", "Magadan durak",
           f"{COMPENDIUM}: «Дурак магаданский»",
           "Of the six cards dealt, five lie locked face down before each player — nobody, not "
           "even he, sees them; only one is in hand. Each successful defence unlocks one; when "
           "the stock is gone all unlock. Locked cards count toward the refill to six.",
           "Из шести сданных карт пять лежат перед игроком закрытыми — их никто не видит, даже "
           "он сам; на руке одна. Каждый отбой открывает ему одну; когда колода кончится, "
           "открываются все. Закрытые карты считаются при доборе до шести.",
           _comp(locked_cards=5, defender_hand_cap_counts="usable_cards")),
    Preset("otboyny", "Дурак отбойный", "Rebound durak", f"{COMPENDIUM}: «Дурак отбойный»",
           "Every second successful defence of the game does not go to the discard: its cards "
           "are shuffled back into the stock (above the trump card) and come into play again; "
           "an empty stock is made anew from them.",
           "Каждый второй отбой в игре не идёт в закрытую стопку: его карты замешиваются в "
           "колоду (над козырем) и снова участвуют в игре; если колода кончилась, из них "
           "получается новая.",
           _comp(discard_rule="every_second_to_stock")),
    Preset("krugovoy", "Дурак круговой", "Circle durak", f"{COMPENDIUM}: «Дурак круговой»",
           "Throw-in durak in which, after every bout and its refill, every player still in "
           "the game passes his whole hand to the player on his left (two players swap "
           "hands). The seats keep their turns; the one left holding cards is the durak.",
           "Подкидной, в котором после каждого кона и добора все, кто ещё в игре, передают "
           "свои карты целиком игроку слева (двое меняются картами). Очерёдность ходов не "
           "меняется; дурак — тот, у кого остались карты.",
           _comp(hand_rotation="left_after_refill")),
    Preset("ochkovy", "Дурак очковый", "Points durak", f"{COMPENDIUM}: «Дурак очковый»",
           "Throw-in durak scored by beaten cards: a defender who beats off a whole bout gets a "
           "point per attack card. When one player is left with cards, the one with the fewest "
           "points is the durak (a tie: the one who went out last among them).",
           "Подкидной на очки: за каждую отбитую карту кона, ушедшего в отбой, отбившемуся "
           "очко. Когда карты остались у одного, дурак — тот, у кого меньше всех очков (при "
           "равенстве — вышедший последним из них).",
           _comp(loser_rule="fewest_beaten_cards", counter="beaten_cards",
                 counter_counts="successful_bouts_only")),
    Preset("pogonny", "Дурак погонный", "Epaulette-count durak",
           f"{COMPENDIUM}: «Дурак погонный»",
           "Throw-in durak in which two or more cards of one rank may be led or thrown in at "
           "once; every two of them laid together score a «погоны» (epaulettes). When one "
           "player is left with cards, the one with the fewest погоны is the durak (a tie: the "
           "one who went out last among them).",
           "Подкидной, в котором можно зайти или подкинуть сразу две и больше карт одного "
           "значения; каждые две, выложенные за раз, — «погоны». Когда карты остались у одного, "
           "дурак — тот, у кого меньше всех погон (при равенстве — вышедший последним из них).",
           _comp(lead_rule="same_rank_multi", throw_in_cards_per_action="multi_same_rank",
                 loser_rule="fewest_pogony", counter="pogony_pairs",
                 counter_counts="lead_and_throw_in")),
    Preset("figurny", "Дурак фигурный", "Figures durak", f"{COMPENDIUM}: «Дурак фигурный»",
           "Throw-in durak scored by figures: a defender who beats off a bout scores the tens, "
           "jacks, queens, kings and aces among its attack cards. Whoever beat the most figures "
           "wins (a tie: a shared win); everyone else loses.",
           "Подкидной на фигуры: отбившийся записывает себе десятки, валетов, дам, королей и "
           "тузов среди отбитых карт кона. Кто отбил больше всех фигур — победитель (при "
           "равенстве победа общая), все остальные проиграли.",
           _comp(loser_rule="none", winner_rule="most_figures", counter="figures_beaten",
                 counter_tie_break="shared")),
]


def _pending_preset(pid: str, ru: str, en: str, summary: str, *,
                    players: tuple[int, ...] = (2, 3, 4, 5, 6), **knobs: Any) -> Preset:
    return Preset(pid, ru, en, f"{COMPENDIUM}: «{ru}»", summary, summary, _comp(**knobs),
                  players)


# The rest of the compendium's attack/defend variants, with the knobs that make them
# different; each reports its pending knobs until the engine plays them (docs/rules.md).
_P += [
    Preset("albansky", "Дурак албанский", "Albanian durak", f"{COMPENDIUM}: «Дурак албанский»",
           "Throw-in durak from a deck laid out by rank, aces on top, and shuffled only within "
           "each rank: the highest cards are dealt, the lowest stay in the stock. Everyone "
           "knows the ranks each player was dealt, not the suits.",
           "Подкидной из колоды, разложенной по достоинству, тузы сверху, и перетасованной "
           "только внутри каждого достоинства: старшие карты сдаются, младшие остаются в "
           "колоде. Достоинства сданных карт известны всем, масти — нет.",
           _comp(deck_presort="rank_desc", shuffle="within_rank")),
    Preset("armyansky_1", "Дурак армянский", "Armenian durak",
           f"{COMPENDIUM}: «Дурак армянский – первый вариант»",
           "Throw-in durak in which the attacker may open every bout with the top card of the "
           "stock instead of a card from his hand, without looking at it first: it is turned "
           "face up as it is led and is then a normal attack card. The turned trump card under "
           "the stock may not be led.",
           "Подкидной, в котором ходящий может начать любой кон не своей картой, а верхней "
           "картой колоды, не глядя: её открывают, когда ею ходят, дальше это обычная карта "
           "хода. Открытым козырем под колодой ходить нельзя.",
           _comp(lead_from_stock=True)),
    Preset("bolshoy", "Дурак большой", "Big durak", f"{COMPENDIUM}: «Дурак большой»",
           "Two decks shuffled together: every card exists twice (7♥#0 and 7♥#1), and a copy "
           "never beats its twin. Whoever holds 52 cards or more after taking loses at once.",
           "Две колоды смешаны: каждая карта есть дважды (7♥#0 и 7♥#1), и одинаковые карты "
           "друг друга не бьют. У кого после взятия оказалось 52 карты или больше — сразу "
           "проиграл.",
           _comp(deck_count=2, immediate_loss_hand_size=52)),
    Preset("veryu_ne_veryu", "Дурак верю не верю", "Believe-or-not durak",
           f"{COMPENDIUM}: «Дурак верю не верю»",
           "Throw-in durak in which the defender covers face down, with any card he likes: a "
           "bluff stands unless doubted. Any other player still in the game may say «I doubt "
           "it» about one face-down card before the bout closes: it is turned up; if it beat, "
           "the doubter takes the whole table (and the defender leads next), if not, the "
           "defender takes it. Only face-up ranks are thrown in; undoubted covers go to the "
           "discard unseen.",
           "Подкидной, в котором отбиваются в закрытую и любой картой: блеф проходит, если в "
           "нём не усомнились. Любой другой игрок, ещё не вышедший из игры, пока кон не "
           "закрыт, может сказать «сомневаюсь» про одну закрытую карту: её открывают; если она "
           "била, все карты со стола забирает сомневающийся (а ходит отбившийся), если нет — "
           "забирает отбивавшийся. Подкидывают только под открытые карты; не проверенные "
           "закрытые карты уходят в отбой не открываясь.",
           _comp(defence_visibility="face_down_challengeable", challenge=CHALLENGE_RULES,
                 throw_in_ranks_from="face_up_only")),
    Preset("zanudny", "Дурак занудный", "Tedious durak", f"{COMPENDIUM}: «Дурак занудный»",
           "Every bout is led with a card of the highest rank in the attacker's hand, whatever "
           "its suit (a plain king before a trump queen). Throw-ins and defence as usual.",
           "Каждый кон начинают картой максимального достоинства на руке, независимо от масти "
           "(простой король раньше козырной дамы). Подкидывают и отбиваются как обычно.",
           _comp(lead_restriction="highest_rank_in_hand")),
    _pending_preset("korolevsky", "Дурак королевский", "Royal durak",
                    "The lowest rank is beaten only by the same-suit ace or the trump ace.",
                    lowest_rank_only_by_ace="same_suit_or_trump_ace"),
    Preset("krestovy", "Дурак крестовый", "Cross durak", f"{COMPENDIUM}: «Дурак крестовый»",
           "No deal: each player gets one card face up and the highest starts. In turn each "
           "turns the top card and lays it on the first other pile clockwise whose top card is "
           "one rank lower (the lowest rank goes on an ace), else on his own pile; the piles "
           "become the hands. Diamonds are trump but cannot beat clubs. One card a bout, no "
           "throw-ins. A defender who does not beat takes the led card and lays one of his own "
           "for the next player to beat, round the table until someone beats it (both to the "
           "discard) or the next would be the attacker (then he takes). The lowest diamond "
           "leads the first game.",
           "Без сдачи: каждому открыто сдаётся по карте, начинает старшая. По очереди каждый "
           "открывает верхнюю карту и кладёт её на первую по часовой стрелке чужую стопку, "
           "где сверху карта на одно значение меньше (младшая карта — на туза), иначе на свою; "
           "стопки становятся картами на руках. Бубны — козыри, но трефы ими не бьются. Ходят "
           "одной картой, не подкидывают. Кто не отбился, забирает карту хода и кладёт свою "
           "для следующего по кругу — пока кто-то не отобьётся (обе в отбой) или следующим не "
           "окажется ходивший (тогда игрок берёт сам). В первой партии первым ходит младшая "
           "бубна.",
           _comp(pre_phase="ladder_deal", deal_mode="none", trump_rule="fixed_suit:diamonds",
                 untrumpable_suits=("clubs",), throw_in=False, take_rule="chain_pass",
                 chain_loop_guard="original_attacker_takes", refill_rule="none")),
    Preset("krugly", "Дурак круглый", "Round durak", f"{COMPENDIUM}: «Дурак круглый»",
           "No deal: eight cards lie face up round a ninth, the trump. On his turn a player "
           "turns the top card of the stock: it takes one face-up card it beats (his choice), "
           "both go to his hand, or else it is laid face up; either way the turn passes on. "
           "Whoever beats the centre trump takes every card left on the table (if the stock "
           "runs out first, the next player takes them). Then durak without a stock: lead one "
           "card, a pair and a card, or two pairs and a card to the left; no throw-ins; the "
           "defender takes only what he did not beat, and the turn passes to the left either "
           "way. The lowest trump leads every game.",
           "Без сдачи: восемь карт лежат открытыми вокруг девятой — козыря. В свой ход игрок "
           "открывает верхнюю карту колоды: она забирает одну открытую карту, которую бьёт "
           "(по выбору), обе идут ему в руку, — иначе ложится открытой; в любом случае ход "
           "переходит дальше. Кто побьёт центральный козырь, забирает все карты со стола "
           "(если колода кончилась раньше — их забирает следующий). Дальше дурак без колоды: "
           "ходят одной картой, парой и картой или двумя парами и картой под соседа слева; не "
           "подкидывают; отбивающийся берёт только то, что не побил, и ход в любом случае "
           "переходит налево. Первым всегда ходит младший козырь.",
           _comp(pre_phase="capture_circle", deal_mode="none", trump_rule="centre_card",
                 lead_rule="patterns:krugly", throw_in=False, take_rule="unbeaten_only",
                 refill_rule="none", next_attacker_after_defence="left_of_attacker",
                 next_attacker_after_take="left_of_attacker",
                 first_attacker_next_game="same_as_first_game")),
    Preset("naborny", "Дурак наборный", "Gathering durak", f"{COMPENDIUM}: «Дурак наборный»",
           "No deal: one card lies face up by the stock. On his turn a player turns the top "
           "card: if it is of the same suit and higher than a face-up card it takes one (his "
           "choice among several), both go to his hand and he turns again; otherwise it is "
           "laid face up and the turn passes on. The last card of the deck is the trump and "
           "takes every face-up card. Then throw-in durak without a stock; the lowest trump "
           "leads every game. Every card was seen by all.",
           "Без сдачи: у колоды лежит открытая карта. В свой ход игрок открывает верхнюю "
           "карту: если она той же масти и старше открытой, он забирает одну из них (по "
           "выбору, если таких несколько), обе карты идут ему в руку, и он ходит снова; иначе "
           "карта ложится открытой, и ход переходит дальше. Последняя карта колоды — козырь, "
           "она забирает все открытые карты. Дальше подкидной без колоды; первым всегда ходит "
           "младший козырь. Все карты видели все.",
           _comp(pre_phase="capture_row", deal_mode="none", trump_rule="last_pre_phase_card",
                 refill_rule="none", first_attacker_next_game="same_as_first_game")),
    _pending_preset("navalenny", "Дурак наваленный", "Heaped durak",
                    "Whole deck dealt; the last dealt card shows the trump; no stock.",
                    deal_mode="whole_deck", trump_rule="last_dealt_card", refill_rule="none"),
    Preset("oborotny", "Дурак оборотный", "Backwards durak", f"{COMPENDIUM}: «Дурак оборотный»",
           "Hands are held backwards: everybody sees your cards but you. Every play is a card "
           "picked blind by its place in your hand and checked once it is turned: a lead is "
           "always good; a card that does not beat (or transfer) makes you take the table; a "
           "wrong throw-in makes the thrower take every card on the table, and the turn passes "
           "to his left. Your lowest trump is shown for you by the player on your left.",
           "Карты держат рубашкой к себе: твои карты видят все, кроме тебя. Каждый ход — карта, "
           "вытянутая вслепую по её месту в руке; её проверяют, когда она открыта: заходить "
           "можно любой; если карта не бьёт (или не переводит), отбивающийся забирает стол; "
           "кто неправильно подбросил, забирает все карты со стола, и ход переходит к его "
           "соседу слева. Младший козырь за тебя показывает сосед слева.",
           _comp(hand_visibility="others_only", invalid_play_penalty=BLIND_PENALTY)),
    _pending_preset("parnomastny", "Дурак парномастный", "Rank-or-suit durak",
                    "Throw-ins may match the rank or the suit of table cards.",
                    throw_in_match="rank_or_suit"),
    Preset("pokerny", "Дурак покерный", "Poker durak", f"{COMPENDIUM}: «Дурак покерный»",
           "Throw-in durak in which the defender, before his first defence of a bout, may "
           "swap any two of his cards for the top two of the stock if he holds six cards or "
           "fewer: the two he gives are shuffled into the stock unseen (the trump card stays "
           "at the bottom). Once a bout per defender.",
           "Подкидной, в котором отбивающийся перед тем, как отбиться, может поменять две "
           "любые свои карты на две верхние карты колоды, если у него не больше шести карт: "
           "отданные карты замешиваются в колоду в закрытую (козырь остаётся внизу). Один "
           "раз за кон на каждого отбивающегося.",
           _comp(pre_defence_exchange="swap_two", swap_two=SWAP_TWO_RULES)),
    _pending_preset("pustoy", "Дурак пустой", "Empty durak",
                    "Draw only when the hand is completely empty.",
                    refill_rule="only_when_empty"),
    Preset("pustyshka", "Дурак пустышка", "Blank-card durak",
           f"{COMPENDIUM}: «Дурак пустышка»",
           "One extra card, the blank: as a defence it beats any card, trumps included; led, "
           "it is beaten by any card, even the lowest. It has no suit and no rank (led alone, "
           "never thrown in). A blank turned as trump means a game without trumps.",
           "Дополнительная карта — пустышка: ею можно отбить любую карту, даже козырь, а её "
           "саму бьёт любая карта, даже самая младшая. Масти и достоинства у неё нет (ею "
           "заходят одной, подкинуть её нельзя). Если козырем открылась пустышка, игра идёт "
           "без козырей.",
           _comp(blank_card=True, trump_indicator_special="no_trump")),
    _pending_preset("arifm_progressiya", "Дурак с арифметической прогрессией",
                    "Arithmetic-progression durak",
                    "Deal one card; after bout k refill up to k+1.",
                    hand_size=1, refill_rule="progressive"),
    Preset("s_bolvanom", "Дурак с болваном", "Durak with a dummy",
           f"{COMPENDIUM}: «Дурак с болваном»",
           "Throw-in durak with a dummy: an extra hand of six dealt to nobody and "
           "seated after the first dealer. It never attacks or defends and cannot be the durak; "
           "it draws like everyone, and the game's first attacker plays its cards as throw-ins "
           "at its place in the round (the next player in takes over when he goes out). If only "
           "the dummy is left holding cards, the durak is the player who emptied his hand last. "
           "Seats: the players and the dummy (2–4 players with 36 cards).",
           "Подкидной с болваном: шесть карт сдаются несуществующему игроку, который сидит после "
           "первого сдатчика. Болван не ходит, не отбивается и не может быть дураком; он "
           "добирает, как все, а его картами в свою очередь подкидывает игрок, зашедший первым "
           "(когда тот выходит, болваном распоряжается следующий игрок). Если карты остались "
           "только у болвана, дурак — тот, кто избавился от карт последним. Места: игроки и "
           "болван (2–4 игрока при 36 картах).",
           _comp(dummy_hand=DUMMY_GAME_FIRST_ATTACKER, max_players=4), (3, 4, 5)),
    Preset("s_jokerom", "Дурак с Джокером", "Durak with a joker",
           f"{COMPENDIUM}: «Дурак с Джокером»",
           "One joker added to the deck: it beats any card, trumps included. It has no suit and "
           "no rank: it may lead a bout alone but is never thrown in or transferred, and "
           "nothing beats a led joker. A joker turned as trump goes into the middle of the "
           "stock and the next card is turned.",
           "В колоду добавлен джокер: он бьёт любую карту, и козыри тоже. У него нет масти и "
           "достоинства: им можно зайти (одним), но нельзя подкинуть или перевести, а "
           "пришедший джокер отбить нечем. Если козырем открылся джокер, его убирают в "
           "середину колоды и открывают следующую карту.",
           _comp(jokers_per_deck=1, joker_rule="beats_any")),
    Preset("s_dvumya_jokerami", "Дурак с двумя Джокерами", "Durak with two jokers",
           f"{COMPENDIUM}: «Дурак с двумя Джокерами»",
           "A red and a black joker. The joker of the trump's colour is the highest card; the "
           "other one beats any card of its own colour, and is beaten by any trump or the high "
           "joker. A joker turned as trump makes both suits of its colour trump; trumps of the "
           "two suits then beat each other by rank only.",
           "Красный и чёрный джокеры. Джокер цвета козыря — самая старшая карта; другой бьёт "
           "любую карту своего цвета, а его самого бьют любой козырь и старший джокер. Если "
           "козырем открылся джокер, козырными становятся обе масти его цвета, и козыри двух "
           "мастей бьют друг друга только старшим достоинством.",
           _comp(jokers_per_deck=2, joker_rule="coloured", trump_indicator_special="colour_pair",
                 off_colour_joker_beaten_by="any_trump_or_high_joker")),
    Preset("s_par", "Дурак с пар", "Pairs durak", f"{COMPENDIUM}: «Дурак с пар»",
           "Five cards each; the player left of the dealer leads first. A lead is one card, a "
           "pair, a pair and any card, two pairs, or two pairs and any card (at most five, and "
           "no more than the defender holds); nothing is thrown in. The first out with the "
           "stock gone wins; the last with cards loses.",
           "По пять карт; первым ходит игрок слева от сдатчика. Заходят одной картой, парой, "
           "парой и любой картой, двумя парами или двумя парами и картой (не больше пяти и не "
           "больше, чем у отбивающегося); подкидывать нельзя. Первый, кто остался без карт, "
           "когда колода кончилась, выигрывает; последний с картами проигрывает.",
           _comp(hand_size=5, lead_rule="patterns:s_par", lead_max=5, throw_in=False,
                 winner_rule="first_out", max_players=5,
                 first_attacker_first_game="left_of_dealer",
                 first_attacker_next_game="left_of_dealer"),
           players=(2, 3, 4, 5)),
    Preset("s_par_pyaterka", "«Пятерка»", "Five (pairs durak)",
           f"{COMPENDIUM}: ««Пятерка»»",
           "Pairs durak with other leads: one card, a pair or two pairs with an odd card, three "
           "of a rank, or four of a rank with an odd card; never a bare pair or three of a rank "
           "with a pair.",
           "«Дурак с пар» с другими заходами: одной картой, парой или двумя парами с "
           "«разводящей» картой, тремя картами одного достоинства или четырьмя с разводящей; "
           "нельзя голой парой и тремя картами с парой.",
           _comp(hand_size=5, lead_rule="patterns:pyaterka", lead_max=5, throw_in=False,
                 winner_rule="first_out", max_players=5,
                 first_attacker_first_game="left_of_dealer",
                 first_attacker_next_game="left_of_dealer"),
           players=(2, 3, 4, 5)),
    Preset("treshka", "Дурак трешка", "Threes durak", f"{COMPENDIUM}: «Дурак трешка»",
           "Every bout is led with exactly three cards of any kind (fewer only when the attacker "
           "or the defender holds fewer); each is beaten separately, then the ranks on the "
           "table are thrown in as usual.",
           "Каждый кон начинают ровно тремя любыми картами (меньше — только если у ходящего "
           "или отбивающегося меньше карт); каждую отбивают отдельно, потом подкидывают "
           "достоинства со стола как обычно.",
           _comp(lead_rule="exact_any:3")),
    _pending_preset("chukotsky", "Дурак чукотский", "Chukchi durak",
                    "The stock is set aside after the trump is shown; no refill.",
                    trump_rule="shown_then_set_aside", refill_rule="none"),
    Preset("shchelkovsky", "Дурак щелковский", "Shchelkovo durak",
           f"{COMPENDIUM}: «Дурак щелковский»",
           "Two decks with their four jokers (four decks as an option), 2 to 10 players. A joker "
           "beats every card but a 2 and falls only to a 2 or another joker. The defender may "
           "pass the cards on with a card of their rank, or show a trump of their rank "
           "(«проездной»): then they go back to the previous player, who must defend and may "
           "throw in that rank to himself. At most ten cards are thrown in a bout (the lead "
           "and the transfers do not count). Equal lowest trumps: the next trumps decide, then "
           "who holds a joker.",
           "Две колоды с четырьмя джокерами (по желанию четыре колоды), от 2 до 10 игроков. "
           "Джокер бьёт любую карту, кроме двойки, и его бьют только двойка или другой джокер. "
           "Отбивающийся может перевести карты картой того же достоинства или показать козырь "
           "того же достоинства («проездной»): тогда карты уходят назад, предыдущему игроку, "
           "который обязан отбиваться и может подкидывать себе карты этого достоинства. "
           "Подкинуть за кон можно не больше десяти карт (заход и переводы не в счёт). "
           "При равных младших козырях решают следующие козыри, затем джокер.",
           _comp(deck_count=2, deck_size=52, jokers_per_deck=2, max_players=10,
                 transfer=True, transfer_by_showing="backward_proezdnoy",
                 joker_rule="beats_all_but_two", bout_attack_limit=10,
                 first_bout_attack_limit=10, self_throw_in="after_proezdnoy",
                 first_attacker_tiebreak="next_trumps_then_joker_then_lot",
                 extra=(THROWN_IN_ONLY,)),  # the catalogue's cap (A): hard_cap
           players=tuple(range(2, 11))),
]

PRESETS: dict[str, Preset] = {p.id: p for p in _P}

# «Данная игра может играться также по правилам простого и переводного дурака»: the variants
# whose section offers other base rules, each with the choices of its section (the preset's
# own rules first). A table's choice is resolved into knobs by `with_base_rules`.
_BASE_CHOICES: dict[str, tuple[str, ...]] = dict.fromkeys(
    ("albansky", "armyansky_1", "beskozyrny", "bolshoy", "veryu_ne_veryu", "dvukhkozyrny",
     "dorozhny", "zanudny", "kozyrny", "korolevsky", "krugovoy", "magadansky", "navalenny",
     "nevidimy", "oborotny", "otboyny", "ochkovy", "pogonny", "pokerny", "potayny", "pustoy",
     "s_jokerom", "chukotsky", "yaponsky"), ("podkidnoy", "prostoy", "perevodnoy"))
_BASE_CHOICES["naborny"] = ("podkidnoy", "perevodnoy")  # simple durak is not mentioned
_BASE_CHOICES["perevodnoy_2"] = ("podkidnoy", "prostoy", "perevodnoy")  # its own, then

# The overlays: prostoy has no throw-ins and no transfer; perevodnoy transfers the lead
# before anything is covered (the compendium's «Дурак переводной»).
BASE_OVERLAYS: dict[str, dict[str, Any]] = {
    "prostoy": {"throw_in": False, "throw_in_after_take": False, "transfer": False,
                "transfer_window": "before_first_cover"},
    "perevodnoy": {"transfer": True, "transfer_window": "before_first_cover"},
}


def base_rules_choices(preset_id: str) -> tuple[str, ...]:
    """The base rules a table may choose for this preset; empty when it offers no choice."""
    get_preset(preset_id)
    return _BASE_CHOICES.get(preset_id, ())


def with_base_rules(preset_id: str, base: str) -> RuleSet:
    """The preset's rules played by the base rules `base` (one of `base_rules_choices`): the
    preset itself for its own base, else the overlay's knobs and `base_rules` set."""
    rules = get_preset(preset_id).rules
    choices = base_rules_choices(preset_id)
    if base not in choices:
        raise RuleError("base_rules", f"{preset_id} is not played by {base!r} rules",
                        f"{preset_id} не играют по правилам «{base}»")
    if base == choices[0]:
        return rules
    return rules.with_options(base_rules=base, **BASE_OVERLAYS[base])


@dataclass(frozen=True)
class TableChoice:
    """One of a preset's rule choices a table may make (the catalogue's alternatives where the
    text is silent or contradicts itself): its name and the knobs it changes."""

    name_en: str
    name_ru: str
    changes: tuple[tuple[str, Any], ...] = ()

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en


_OVER_LIMIT = (
    # щелковский: «Максимальное число подкидываемых карт 10. В том случае, если игроки
    # подкинули более десяти карт, игрок может на выбор: выбрать карты, которые отбивать, а
    # остальные возвратить»: the catalogue's (A), the preset's, and (B)
    TableChoice("at most 10 thrown in", "не больше 10 подкинутых"),
    TableChoice("over 10: sent back", "сверх 10: назад",
                (("over_limit_policy", "defender_chooses"),)),
)
_NO_TRUMP_HELD = (
    # SP5: «если козыря нет, то либо по жребию или же определяют по младшей карте»
    TableChoice("no trump: lot", "без козыря: жребий"),
    TableChoice("no trump: lowest card", "без козыря: младшая",
                (("first_attacker_fallback", "lowest_card"),)),
)
_ANY_ACE = (
    # королевский: «самую младшую карту в игре можно отбить только тузом … Козырным тузом можно
    # отбить любую младшую карту»: the same-suit or the trump ace (the catalogue's), or any ace
    TableChoice("lowest: own or trump ace", "младшую: свой/козырный туз"),
    TableChoice("lowest: any ace", "младшую: любой туз",
                (("lowest_rank_only_by_ace", "any_ace"),)),
)
_BEATS_ANY = (
    # дорожный: «подкидывать карты такой же масти старшего значения или козырную карту»: the
    # latest beating card (the catalogue's), or any beating card on the table
    TableChoice("throw-in beats last cover", "подкинуть старше последней"),
    TableChoice("throw-in beats any cover", "подкинуть старше любой",
                (("throw_in_match", "beats_any_defence"),)),
)
_EVERY_BEAT = (
    # очковый: «свое количество отбитых карт»: the defended bouts' cards (the catalogue's), or
    # every card covered, also in a bout then taken
    TableChoice("score defended bouts", "очки за отбой"),
    TableChoice("score every beat", "очки за каждую побитую",
                (("counter_counts", "every_beat"),)),
)
_COUNT_ON_TAKE = (
    # фигурный: the figures of discarded bouts (the catalogue's), or also those covered before
    # a take
    TableChoice("figures of defended bouts", "фигуры из отбоя"),
    TableChoice("figures of every beat", "фигуры за каждую побитую",
                (("count_on_take", True),)),
)
_KRUGLY = (
    # круглый: «Игрок, который отбивает девятую карту, забирает все оставшиеся карты на столе»:
    # the centre card (the catalogue's (a)) or the first card laid beside the eight (b); and
    # the table left when the stock runs out goes to the next player (the catalogue's) or out
    # of play
    TableChoice("ninth: the centre card", "девятая: центральная"),
    TableChoice("ninth: the first laid", "девятая: первая выложенная",
                (("pre_phase_params", (("ninth_card", "first_added"),)),)),
    TableChoice("stock out: leftovers discarded", "колода кончилась: остаток в отбой",
                (("pre_phase_params", (("on_stock_empty", "discard_leftovers"),)),)),
    TableChoice("first laid ninth, leftovers discarded", "первая выложенная, остаток в отбой",
                (("pre_phase_params", (("ninth_card", "first_added"),
                                       ("on_stock_empty", "discard_leftovers"))),)),
)
_DUMMY_CONTROL = (
    # с болваном: «болваном управляет первый ходящий» — the game's first attacker (the
    # catalogue's `controller` choice), or each bout's attacker
    TableChoice("dummy: first attacker", "болван: первый ходящий"),
    TableChoice("dummy: bout's attacker", "болван: ходящий в кону",
                (("dummy_hand", DUMMY_BOUT_ATTACKER),)),
    # «возможен вариант игры, когда по согласованию между игроками болван имеет право это
    # делать» (ходить и отбиваться), with either controller
    TableChoice("dummy plays: 1st attacker", "болван играет: 1-й ходящий",
                (("dummy_hand", DUMMY_PLAYS_GAME_FIRST_ATTACKER),)),
    TableChoice("dummy plays: bout leader", "болван играет: ходящий кона",
                (("dummy_hand", DUMMY_PLAYS_BOUT_ATTACKER),)),
)
_AFTER_CAPTURE = (
    # наборный: after a capture the next card is compared like any other (the catalogue's
    # reading (b)), or laid without comparing and the turn passes (reading (a))
    TableChoice("after a capture: turn on", "после взятия: открывать дальше"),
    TableChoice("after a capture: lay, pass", "после взятия: выложить, ход дальше",
                (("pre_phase_params", (("after_capture", "seed_and_end"),)),)),
)
_STOCK_LEAD_SCOPE = (
    # армянский: a lead from the stock opens any bout (the catalogue's reading), or only the
    # game's first
    TableChoice("stock lead: every bout", "ход с колоды: каждый кон"),
    TableChoice("stock lead: first only", "ход с колоды: только первый",
                (("extra", (STOCK_LEAD_FIRST_ONLY,)),)),
)
_OPTION_GROUPS: dict[str, tuple[tuple[TableChoice, ...], ...]] = {
    "s_bolvanom": (_DUMMY_CONTROL,),
    "naborny": (_AFTER_CAPTURE,),
    "armyansky_1": (_STOCK_LEAD_SCOPE,),
    "krugly": (_KRUGLY,),
    "ochkovy": (_EVERY_BEAT,),
    "figurny": (_COUNT_ON_TAKE,),
    "shchelkovsky": (_OVER_LIMIT,),
    "korolevsky": (_ANY_ACE,),
    "dorozhny": (_BEATS_ANY,),
}


def _option_groups(preset: Preset) -> tuple[tuple[TableChoice, ...], ...]:
    groups = _OPTION_GROUPS.get(preset.id, ())
    rules = preset.rules
    if (rules.first_attacker_first_game in ("lowest_trump", "lowest_own_trump")
            and rules.first_attacker_fallback == "lot" and rules.hand_visibility == "owner_only"
            and rules.trump_rule != "personal_six" and rules.pre_phase == "none"):
        groups += (_NO_TRUMP_HELD,)  # SP5 is a table option everywhere claims are made
    return groups


_OWN_RULES = TableChoice("the preset's rules", "правила варианта")
_FROM_UNDER_THE_DURAK = (
    # SP17: под дурака (the app presets': the durak's right neighbour leads the next game) or
    # из-под дурака (his left neighbour)
    TableChoice("next game: durak's left leads", "потом: из-под дурака",
                (("first_attacker_next_game", "iz_pod_durak"),)),
)
_NO_STOCK_REFUSED = (
    # SP2: with no stock after the deal the last dealt card shows the trump, or such a table
    # (6 × 6 = 36 cards) is not played
    TableChoice("no stock left: not played", "без колоды: не играть",
                (("trump_when_no_stock", "forbid"),)),
)


def _deals_out_the_deck(preset: Preset) -> bool:
    """Whether some player count of the preset leaves no stock to turn the trump from (SP2),
    and some other one does (a table of that option must remain playable)."""
    forbid = preset.rules.with_options(trump_when_no_stock="forbid")
    refused = 0
    for n in preset.players:
        try:
            validate(forbid, n)
        except RuleError as error:
            refused += error.knob == "trump_when_no_stock"
    return 0 < refused < len(preset.players)


def _single_options(preset: Preset) -> tuple[TableChoice, ...]:
    """Choices offered one at a time over the preset's own rules, not in every combination:
    they apply to almost every preset, and the form shows a choice on one line of 80 columns,
    which three or four names joined would not fit (`durak host --rule` combines any)."""
    rules = preset.rules
    out: tuple[TableChoice, ...] = ()
    if rules.first_attacker_next_game == "pod_durak":
        out += _FROM_UNDER_THE_DURAK
    if (rules.trump_rule == "turned_under_stock" and rules.trump_when_no_stock != "forbid"
            and _deals_out_the_deck(preset)):
        out += _NO_STOCK_REFUSED
    return out


@cache
def table_choices(preset_id: str) -> tuple[TableChoice, ...]:
    """The rule choices a table of this preset may make — every combination of its own
    options (and SP5's), the preset's own first; then SP17's and SP2's, each alone over the
    preset's rules; empty when it offers none."""
    preset = get_preset(preset_id)
    groups = _option_groups(preset) or ((_OWN_RULES,),)
    combined = tuple(TableChoice(" · ".join(c.name_en for c in combo),
                                 " · ".join(c.name_ru for c in combo),
                                 tuple(item for c in combo for item in c.changes))
                     for combo in product(*groups))
    single = _single_options(preset)
    return combined + single if len(combined) > 1 or single else ()


DEFAULT_PRESET = "app_podkidnoy"


def get_preset(preset_id: str) -> Preset:
    try:
        return PRESETS[preset_id]
    except KeyError:
        pass
    from p2p_durak.engine.games.catalogue import GAMES  # (the games of their own engines)
    other = GAMES.get(preset_id)
    if other is not None and other.works:
        raise RuleError("preset", f"{preset_id} has its own engine: only `durak simulate`, "
                        f"`durak arena` and `durak rules {preset_id}` play it yet",
                        f"у {preset_id} свой движок: пока в него играют только `durak "
                        f"simulate`, `durak arena` и `durak rules {preset_id}`")
    if other is not None:
        raise RuleError("preset", f"{preset_id} is not playable yet (no {other.engine} engine)",
                        f"{preset_id} пока не играется (нет движка {other.engine})")
    raise RuleError("preset", f"no preset {preset_id!r}", f"нет варианта {preset_id!r}")


def working_presets() -> list[Preset]:
    """The presets the engine plays."""
    return [p for p in PRESETS.values() if p.works]


def table_presets() -> list[Preset]:
    """The presets a table offers: those the engine, the networked table, the screen and the
    bots all play."""
    return [p for p in PRESETS.values() if p.works and not p.unfinished]
