"""The UI's words in English and Russian, and how the UI speaks and draws right now (`Look`).

One catalogue: every key has its English and Russian text (`str.format` fields allowed).
Which language and symbols a terminal gets is decided in `cli/terminal.py`.
"""

from __future__ import annotations

from dataclasses import replace

from p2p_durak.cli.terminal import LANGS
from p2p_durak.engine.cards import SUIT_NAMES as SUIT_NAMES_EN
from p2p_durak.engine.cards import SUIT_NAMES_RU
from p2p_durak.node.api import SeatInfo, TableSnapshot
from p2p_durak.node.event_lines import cards_word

__all__ = ["BOT_NAMES", "CATALOGUE", "LANGS", "PLAYER_NAME", "Look", "Messages"]

CATALOGUE: dict[str, tuple[str, str]] = {
    # ---- general
    "app.title": ("Durak", "Дурак"),
    "too_small": ("The window is too small: the game needs {need_w}×{need_h}, this one is "
                  "{w}×{h}. Make it larger.",
                  "Окно слишком маленькое: игре нужно {need_w}×{need_h}, а сейчас {w}×{h}. "
                  "Увеличьте его."),
    "no_terminal": ("the game needs a terminal (see `durak --help` for the other commands)",
                    "игре нужен терминал (другие команды: `durak --help`)"),
    "lang.no_cyrillic": ("Russian needs a terminal with Cyrillic: a UTF-8 or KOI8-R locale.",
                         "Для русского нужен терминал с кириллицей: локаль UTF-8 или KOI8-R."),
    "off": ("off", "нет"),
    "on": ("on", "да"),
    # ---- the printing commands (one line each, after "durak COMMAND: ")
    "resume.running": ("this game is already running (game {game}, in another durak process)",
                       "эта игра уже идёт (игра {game}, в другом процессе durak)"),
    "resume.nothing": ("no unfinished game here", "незаконченных игр здесь нет"),
    "tables.none": ("no table found in {seconds} s (multicast may be blocked on this network); "
                    "join by address: durak join HOST:PORT",
                    "ни одного стола не найдено за {seconds} с (возможно, сеть не пропускает "
                    "multicast); "
                    "войдите по адресу: durak join АДРЕС:ПОРТ"),
    # ---- lobby
    "lobby.title": ("Durak — tables on the network", "Дурак — столы в сети"),
    "lobby.empty": ("No tables found yet. Play against bots now (Enter) or create a table (C).",
                    "Столов пока нет. Сыграйте с ботами сейчас (Enter) или создайте стол (C)."),
    # 80 columns: the timer's cell keeps 20 for «15 с, потом проигрыш»
    "lobby.columns": ("{name} {variant} {players} {free}  {timer}",  # (padded by the view)
                      "{name} {variant} {players} {free}  {timer}"),
    "lobby.col.name": ("Table", "Стол"),
    "lobby.col.variant": ("Variant", "Вариант"),
    "lobby.col.players": ("Players", "Игроки"),
    "lobby.col.free": ("Free", "Мест"),
    "lobby.col.timer": ("Turn timer", "Таймер хода"),
    "lobby.discovery_off": ("Network discovery is off: {reason}",
                            "Поиск столов в сети отключён: {reason}"),
    "lobby.searching": ("Looking for tables on the local network…",
                        "Ищем столы в локальной сети…"),
    "lobby.keys": ("↑↓ choose · Enter join · C create · P practice · L язык · ? help · Q quit",
                   "↑↓ Enter сесть · C создать · P игра с ботами · L language · ? помощь · "
                   "Q выход"),
    "lobby.leaving": ("Leaving the table after this bout, then quitting (Ctrl-C: quit now)",
                      "Выходим из-за стола после этого кона, затем из игры (Ctrl-C — сразу)"),
    "lobby.scrolled": ("Tables {first}–{last} of {count} (↑↓ scroll)",
                       "Столы {first}–{last} из {count} (↑↓ — дальше)"),
    "lobby.full": ("that table has no free seat", "за этим столом нет свободных мест"),
    # (the timer's cell: 20 columns at most)
    "lobby.other_version": ("other version: v{version}", "другая версия: v{version}"),
    # (one status line: 78 columns at most)
    "lobby.incompatible": ("that table speaks protocol version {theirs}, this durak {ours}: "
                           "update the older one",
                           "этот стол на версии протокола {theirs}, этот durak — на {ours}: "
                           "обновите более старый"),
    "tables.incompatible": ("incompatible: protocol version {theirs}, this durak speaks {ours}",
                            "несовместим: версия протокола {theirs}, у этого durak — {ours}"),
    "lobby.host_fingerprint": ("Host of {name}: {fp} (joining checks it)",
                               "Хозяин {name}: {fp} (сверяется при входе)"),
    "lobby.changed_rules": ("{mark} the table changes its variant's rules: the waiting room "
                            "shows them",
                            "{mark} правила варианта изменены: они видны за столом до игры"),
    "lobby.you": ("You play as {name} (another name: durak --name NAME)",
                  "Ваше имя за столом: {name} (другое: durak --name ИМЯ)"),
    "lobby.own_fingerprint": ("Your fingerprint: {fp}", "Ваш отпечаток ключа: {fp}"),
    # how strong the bots are: as fast as the rules engine (cli/engine_build.py, docs/bots.md)
    "lobby.engine.compiled": ("Bots at full strength (compiled rules engine)",
                              "Боты в полную силу (скомпилированный движок правил)"),
    "lobby.engine.compiling": ("Bots at reduced strength while the rules engine compiles "
                               "({elapsed} so far)",
                               "Боты пока слабее: движок правил компилируется в фоне "
                               "(идёт {elapsed})"),
    "lobby.engine.ready": ("Compiled engine ready: bots at full strength once you restart durak",
                           "Движок скомпилирован: боты в полную силу после перезапуска durak"),
    "lobby.engine.failed": ("Bots at reduced strength: the engine did not compile ({reason})",
                            "Боты слабее: движок не скомпилировался ({reason})"),
    "lobby.engine.python": ("Bots at reduced strength: the rules engine runs as pure Python",
                            "Боты слабее: движок правил работает на чистом Python"),
    # tonight's scoreboard (cli/history_text.py counts the games in each language)
    "lobby.tonight": ("Tonight: {games} · the durak: {names}",
                      "Сегодня: {games} · дурак: {names}"),
    "lobby.tonight_you": ("You ({name}): the durak in {duraks} of {games}",
                          "Вы ({name}): дурак в {duraks} из {games}"),
    "lobby.starting": ("Starting a practice game…", "Начинаем тренировочную партию…"),
    # ---- the waiting room: a networked table before its game starts
    "waiting.seated": ("Waiting for players: {n} of {seats} seated",
                       "Ждём игроков: за столом {n} из {seats}"),
    "waiting.free_seat": ("free seat", "свободное место"),
    "waiting.someone": ("a player", "игрок"),
    "waiting.starts": ("The game starts as soon as every seat is taken.",
                       "Игра начнётся, как только все места будут заняты."),
    "waiting.failed": ("Could not join: {reason}", "Не удалось сесть за стол: {reason}"),
    "waiting.keys": ("Q back to the lobby · ? help · L язык",
                     "Q в лобби · ? помощь · L language"),
    "waiting.keys_host": ("B fill the free seats with bots and start · Q back to the lobby · "
                          "? help",
                          "B боты на свободные места, начать · Q в лобби · ? помощь"),
    # ---- create form
    "create.title": ("New table", "Новый стол"),
    "create.preset": ("Rules", "Правила"),
    "create.choice": ("Rule option", "Вариант правил"),
    "create.players": ("Players", "Игроков"),
    "create.deck": ("Deck", "Колода"),
    "create.deck_cards": ("{n} {cards}", "{n} {cards}"),
    "create.network_bots": ("Bots at a network table", "Ботов за сетевым столом"),
    "create.transfer": ("Transfer (перевод)", "Перевод"),
    "create.throw_in_by": ("Who throws in", "Кто подкидывает"),
    "create.teams": ("Teams", "Командами"),
    "create.pogony": ("Epaulettes (pogony)", "Погоны"),
    "create.timer": ("Turn timer", "Таймер хода"),
    "create.timer_policy": ("When time runs out", "Когда время вышло"),
    "create.grace": ("Wait for a lost player", "Ждать отключившегося"),
    "create.bots": ("Bots", "Боты"),
    "create.practice": ("▶ Play with bots", "▶ Играть с ботами"),
    "create.network": ("▶ Open the table on the network", "▶ Открыть стол в сети"),
    "create.keys": ("↑↓ field · ←→ change · Enter start · Esc back",
                    "↑↓ поле · ←→ изменить · Enter начать · Esc назад"),
    "create.pending": ("{count} more variants of the catalogue are not playable yet.",
                       "Ещё {count} вариантов из каталога пока не играются."),
    "throw_in_by.all_non_defenders": ("everyone", "все"),
    "throw_in_by.neighbours_of_defender": ("neighbours", "соседи"),
    "throw_in_by.opponents_of_defender": ("opponents", "соперники"),
    "timer.off": ("no timer", "без таймера"),
    "timer.seconds": ("{s} s", "{s} с"),
    "timer_policy.bot": ("a bot moves for you", "за вас ходит бот"),
    "timer_policy.lose": ("you lose the game", "вы проигрываете"),
    "timer.short.bot": ("{s} s, then a bot", "{s} с, потом бот"),
    "timer.short.lose": ("{s} s, then lose", "{s} с, потом проигрыш"),
    "timer.table": ("timer {s} s", "таймер {s} с"),
    "clocks.line": ("Turn timer: {timer} · a lost player is awaited {grace} s",
                    "Таймер хода: {timer} · отключившегося ждут {grace} с"),
    "level.random": ("random", "случайный"),
    "level.easy": ("easy", "лёгкий"),
    "level.medium": ("medium", "средний"),
    "level.hard": ("hard", "сильный"),
    # ---- table: header and players
    "game_no": ("game {n}", "партия {n}"),
    "trump": ("trump", "козырь"),
    "trump.none": ("no trump", "без козыря"),
    "trump.hidden": ("+ hidden", "+ потайной"),
    "stock": ("stock {n}", "колода {n}"),
    "discard": ("discard {n}", "бито {n}"),
    "timer.left": ("time {s} s", "время {s} с"),
    "you": ("you", "вы"),
    "cards_n": ("{n} {cards}", "{n} {cards}"),
    "locked_n": ("+{n} locked", "+{n} закрыто"),
    "bot": ("bot", "бот"),
    # с болваном: the dummy's seat, its controller and its hand row
    "dummy": ("Dummy", "Болван"),
    "dummy.seat": ("Dummy ({who})", "Болван ({who})"),  # short: the seats list's name cell
    "dummy.by": ("{who} plays", "играет {who}"),
    "dummy.hand": ("The dummy's hand", "Карты болвана"),
    "dummy.yours": ("you play", "играете вы"),
    "dummy.keys_here": ("◀ keys", "◀ клавиши"),
    "role.attacking": ("attacking", "ходит"),
    "role.throwing": ("may throw in", "подкидывает"),
    "role.defending": ("defending", "отбивается"),
    "role.taking": ("takes", "берёт"),
    "role.out": ("out", "вышел"),
    "teammate": ("teammate", "партнёр"),
    "duraks_n": ("durak ×{n}", "дурак ×{n}"),
    "score_n": ("score {n}", "очки {n}"),
    "table": ("Table", "Стол"),
    "table.empty": ("(empty)", "(пусто)"),
    "hand": ("Your hand", "Ваши карты"),
    "hand.blind": ("(backwards)", "(рубашкой к себе)"),
    "log": ("Moves", "Ходы"),
    "waiting_for": ("Waiting for {who}", "Ждём: {who}"),
    "activity.dealing": ("Dealing the cards…", "Раздача карт…"),
    "activity.shuffling_n": ("Shuffling the deck: {done}/{total}",
                             "Тасуем колоду: {done}/{total}"),
    "activity.dealing_n": ("Dealing the cards: {done}/{total}", "Раздача карт: {done}/{total}"),
    "activity.waiting_for": ("waiting for {who}", "ждём: {who}"),
    "activity.seating": ("Taking seats…", "Рассаживаемся…"),
    "activity.keys": ("Exchanging keys…", "Обмен ключами…"),
    "activity.audit": ("Checking the game…", "Проверка партии…"),
    "activity.lobby": ("Waiting for players…", "Ждём игроков…"),
    "activity.halted": ("The game has stopped", "Игра остановлена"),
    "sending": ("sending…", "отправляем…"),
    # ---- table: prompts
    "prompt.lead": ("Your lead: play a card (number or ←→ Enter); Space marks several of a rank.",
                    "Ваш ход: карта — цифрой или ←→ Enter; Пробел — несколько одного "
                    "достоинства."),
    "prompt.lead_pattern": ("Your lead: mark its cards with Space, then Enter (? lists the leads).",
                            "Ваш ход: отметьте карты Пробелом, затем Enter (? — какие заходы "
                            "можно)."),
    "prompt.lead_stock": ("Your lead: play a card, or K leads the top stock card unseen.",
                          "Ваш ход: выберите карту или K — ход верхней картой колоды, не "
                          "глядя."),
    "prompt.defend": ("Defend: beat the attack cards, or take (T).",
                      "Отбивайтесь: побейте карты или возьмите (T)."),
    "prompt.defend_transfer": ("Defend: beat, transfer (R) or take (T).",
                               "Отбивайтесь: побейте, переведите (R) или возьмите (T)."),
    "prompt.cover": ("Defend face down: any card covers (a bluff stands unless doubted), or "
                     "take (T).",
                     "Отбивайтесь в закрытую любой картой (блеф проходит, если не усомнятся) "
                     "или T."),
    "prompt.send_back": ("More than {limit} thrown in: choose a card (↑↓, click) and send it "
                         "back (G).",
                         "Подкинуто больше {limit}: выберите карту (↑↓, щелчок) и верните её "
                         "(G)."),
    "prompt.defend_exchange": ("Defend: beat, take (T), or swap two marked cards (Space) with "
                               "the stock (X).",
                               "Отбивайтесь: побейте, возьмите (T) или обменяйте две отмеченные "
                               "(Пробел) (X)."),
    "prompt.doubt": ("Doubt a face-down card (V), throw in, or pass (P).",
                     "Усомнитесь в закрытой карте (V), подкиньте или скажите «бито» (P)."),
    "prompt.name_trump": ("You are the King: name the trump — press a card of that suit.",
                          "Вы Король: назначьте козырь — нажмите карту этой масти."),
    "key.name_trump": ("1-9 name its suit", "1-9 масть карты"),
    "prompt.capture": ("Your {card} takes one face-up card: choose it (↑↓ Enter, or click it).",
                       "Ваша {card} забирает одну открытую карту: выберите её (↑↓ Enter или "
                       "щелчок)."),
    "key.capture": ("↑↓ choose · Enter take", "↑↓ выбор · Enter забрать"),
    "prompt.defend_chain": ("Defend: beat the card, or pass one of yours on (R): you take the "
                            "led card.",
                            "Отбивайтесь: побейте карту или передайте дальше свою (R) — карта "
                            "хода ваша."),
    "key.chain": ("R pass on", "R передать"),
    "table.piles": ("(the piles lie by their players)", "(стопки лежат у игроков)"),
    "role.turning": ("turns a card", "открывает"),
    "title.0": ("King", "Король"),
    "title.1": ("Prince", "Принц"),
    "title.2": ("Executioner", "Палач"),
    "title.3": ("Soldier", "Солдат"),
    "title.4": ("Thief", "Вор"),
    "title.5": ("Jester", "Шут"),
    "title.6": ("Shit", "Говно"),
    "over.titles": ("Titles for the next game: {titles}", "Звания на следующую партию: {titles}"),
    "over.ladder": ("{who} lays out {card} (ladder 7–{top}).",
                    "{who} выкладывает {card} (лесенка 7–{top})."),
    "over.ladder_hand": ("From now on {who} is dealt {n} {cards}.",
                         "Теперь {who} получает по {n} {cards}."),
    "over.long_durak": ("{who} laid out the ace: the long durak! The match is over; the next "
                        "game starts a new one.",
                        "{who} выложил туза — длинный дурак! Серия окончена; следующая партия "
                        "начнёт новую."),
    "seat.ladder": ("ladder 7–{top}", "лесенка 7–{top}"),
    "over.king": ("{who} is King: the series is his while he stays King.",
                  "{who} — Король: серия его, пока он Король."),
    "prompt.throw": ("Throw in a card of a rank on the table, or pass (P).",
                     "Подкиньте карту того же достоинства или скажите «бито» (P)."),
    "prompt.throw_after_take": ("They take: throw in more, or pass (P).",
                                "Берут: подкиньте вдогонку или «пас» (P)."),
    "prompt.claim_for": ("{who} cannot see his cards: show his lowest trump for him (S).",
                         "{who} не видит своих карт: покажите его младший козырь (S)."),
    "prompt.no_trump_for": ("{who} cannot see his cards and has no trump: say so (P).",
                            "{who} не видит своих карт, козырей у него нет: скажите (P)."),
    "prompt.claim": ("Show your lowest trump (S) to see who leads first.",
                     "Покажите младший козырь (S), чтобы решить, кто ходит первым."),
    "prompt.no_trump": ("You have no trump: say so (P).",
                        "У вас нет козырей: скажите об этом (P)."),
    "prompt.tie_next_trump": ("Equal lowest trumps: show your next trump (S), or say you have "
                              "none (P).",
                              "Младшие козыри равны: покажите следующий козырь (S) или "
                              "скажите «нет» (P)."),
    "prompt.tie_joker": ("No next trumps: show a joker (S), or say you have none (P).",
                         "Следующих козырей нет: покажите джокера (S) или скажите, что его "
                         "нет (P)."),
    "prompt.lowest_card": ("Nobody has a trump: show your lowest card (S).",
                           "Козырей ни у кого нет: покажите свою младшую карту (S)."),
    "prompt.dummy": ("The dummy's turn: throw in one of its cards, or P: it passes",
                     "Очередь болвана: подкиньте его карту или P — пас"),
    # (with the table option can_attack_defend the dummy leads and defends too)
    "prompt.dummy_lead": ("The dummy leads: play one of its cards",
                          "Ход болвана: сходите его картой"),
    "prompt.dummy_defend": ("The dummy defends: beat with one of its cards (B), or T: it takes",
                            "Болван отбивается: побейте его картой (B) или T — берёт"),
    "prompt.over": ("N — play again · Q — back to the lobby",
                    "N — ещё партия · Q — в лобби"),
    "prompt.halted": ("Q — back to the lobby", "Q — в лобби"),
    "prompt.leave_confirm": ("Press Q again to leave; at a networked table the others play on "
                             "without you.",
                             "Нажмите Q ещё раз, чтобы уйти; за сетевым столом остальные "
                             "доиграют без вас."),
    "key.take": ("T take", "T беру"),
    "key.pass": ("P pass", "P бито"),
    "key.pass_take": ("P pass", "P пас"),
    "key.transfer": ("R transfer", "R перевод"),
    "key.lead_stock": ("K lead from stock", "K ход с колоды"),
    "key.show": ("S show trump", "S показать козырь"),
    # щелковский: the shown trump sends the cards back to the previous player
    "key.proezdnoy": ("S проездной: show trump, cards go back",
                      "S проездной: показать козырь, карты назад"),
    "key.beat": ("B beat selected", "B побить выбранную"),
    "key.cover": ("B cover selected face down", "B закрыть выбранную"),
    "key.doubt": ("V I doubt it", "V сомневаюсь"),
    "key.exchange": ("Space×2 X swap two", "Пробел×2 X обмен двух"),
    "key.send_back": ("↑↓ G send back", "↑↓ G вернуть"),
    "key.claim": ("S show lowest trump", "S показать младший козырь"),
    "key.no_trump": ("P no trump", "P нет козыря"),
    "key.dummy": ("E dummy's hand", "E карты болвана"),
    "key.own_hand": ("E your hand", "E свои карты"),
    "key.dummy_throw": ("1-9/Enter throw it in", "1-9/Enter подкинуть"),
    "key.dummy_pass": ("P it passes", "P болван пас"),
    "hand.timeout.bot": ("when time runs out a bot moves for you",
                         "время выйдет — за вас походит бот"),
    "hand.timeout.lose": ("when time runs out you lose the game",
                          "время выйдет — партия проиграна"),
    "key.next": ("N play again", "N ещё партия"),
    "key.help": ("? help", "? помощь"),
    "key.leave": ("Q leave", "Q выйти"),
    "key.play": ("1-9/Enter play", "1-9/Enter ход"),
    "key.mark": ("Space mark pair", "Пробел пара"),
    "your_turn": ("Your move", "Ваш ход"),
    "you_may": ("you may play now too", "можно ходить и сейчас"),
    # ---- notices
    "refused": ("Not allowed: {reason}", "Нельзя: {reason}"),
    "no_card": ("There is no card there.", "Там нет карты."),
    "no_dummy": ("You do not play the dummy now.", "Сейчас болваном играете не вы."),
    "no_target": ("There is no uncovered attack card to beat.",
                  "На столе нет непокрытой карты."),
    "not_sendable": ("Choose a thrown-in card not yet beaten (↑↓) to send back.",
                     "Выберите (↑↓) непобитую подкинутую карту, чтобы её вернуть."),
    "mark_two": ("Mark the two cards to swap with Space first.",
                 "Сначала отметьте Пробелом две карты для обмена."),
    "no_face_down": ("There is no face-down card on the table to doubt.",
                     "На столе нет закрытой карты, чтобы сомневаться."),
    "not_now": ("That is not possible now.", "Сейчас так нельзя."),
    "timeout:bot": ("Time ran out: a bot played for you.",
                    "Время вышло: за вас сходил бот."),
    "timeout:lose": ("Time ran out: you lose this game.", "Время вышло: вы проиграли партию."),
    "rules_refused": ("These rules cannot be played: {reason}",
                      "Так играть нельзя: {reason}"),
    # ---- end of game
    "over.title": ("Game over", "Партия окончена"),
    "over.durak": ("The durak: {who}", "Дурак: {who}"),
    "over.durak_you": ("You are the durak.", "Вы — дурак."),
    "over.won": ("You are not the durak. Well played!", "Вы не остались в дураках. Браво!"),
    "over.team_won": ("Your team wins: {who}.", "Ваша команда выиграла: {who}."),
    "over.team_lost": ("Your team lost: {who}.", "Ваша команда проиграла: {who}."),
    "over.draw": ("A draw: nobody is the durak.", "Ничья: дурака нет."),
    "over.winner": ("The winner (first out): {who}", "Победитель (вышел первым): {who}"),
    "over.pogony": ("with epaulettes (погоны): {n}", "с погонами: {n}"),
    "over.timeout": ("{who} lost on time.", "{who}: время вышло, партия проиграна."),
    "over.finish": ("Went out in this order: {order}", "Вышли по порядку: {order}"),
    "over.series": ("Series after game {n}", "Счёт серии после партии {n}"),
    "over.col.duraks": ("duraks", "дураков"),
    "over.col.pogony": ("epaulettes", "погон"),
    "over.col.points": ("points", "очков"),
    "over.winners": ("Winner: {who}. Everybody else lost.",
                     "Победитель: {who}. Остальные проиграли."),
    "over.scores.beaten_cards": ("Cards beaten: {scores}", "Отбито карт: {scores}"),
    "over.scores.figures_beaten": ("Figures beaten: {scores}", "Отбито фигур: {scores}"),
    "over.scores.pogony_pairs": ("Pairs laid at once (погоны): {scores}",
                                 "Погон выложено: {scores}"),
    # ---- help
    "help.title": ("Help — {preset}", "Помощь — {preset}"),
    "help.rules": ("Rules", "Правила"),
    "help.keys": ("Keys", "Клавиши"),
    "help.close": ("Esc or ? — back", "Esc или ? — назад"),
    "help.deck": ("Deck: {size} cards, {hand} in a hand, {players} players.",
                  "Колода: {size} карт, по {hand} в руке, игроков: {players}."),
    # the keys every table has; then the lines of variants' own keys (shown for their rules)
    "help.key_lines": (
        "1…9, 0        play your card number 1…10 (Shift+1…0: cards 11…20)\n"
        "← →  Enter    choose a card, play it\n"
        "Space         mark several cards of one rank, Enter leads them\n"
        "↑ ↓  Tab      choose the attack card on the table to beat\n"
        "B             beat the chosen attack card with the chosen card\n"
        "T             take the cards (беру)\n"
        "P             pass, done (бито / пас)",
        "1…9, 0        сыграть карту с этим номером (Shift+1…0: карты 11…20)\n"
        "← →  Enter    выбрать карту, сыграть её\n"
        "Пробел        отметить несколько карт одного достоинства, Enter — ход ими\n"
        "↑ ↓  Tab      выбрать карту на столе, которую бить\n"
        "B (И)         побить выбранную карту выбранной картой\n"
        "T (Е)         беру\n"
        "P (З)         бито / пас"),
    "help.key.claim": (
        "S             first move: show your lowest trump (P: you have none)",
        "S (Ы)         первый ход: показать младший козырь (P — козыря нет)"),
    "help.key.claim_card": (
        "S             first move: show your lowest card",
        "S (Ы)         первый ход: показать свою младшую карту"),
    "help.key.transfer": (
        "R             transfer with the chosen card (перевод)",
        "R (К)         перевести выбранной картой"),
    "help.key.chain": (
        "R             крестовый: take the first card, pass the chosen one on",
        "R (К)         крестовый: взять первую карту, передать дальше выбранную"),
    "help.key.show": (
        "S             transfer by showing a trump of the attack rank",
        "S (Ы)         перевести, показав козырь того же достоинства"),
    "help.key.proezdnoy": (
        "              (щелковский «проездной»: the cards go back to the player before)",
        "              (щелковский «проездной»: карты уходят назад, предыдущему игроку)"),
    "help.key.lead_stock": (
        "K             lead the top card of the stock, unseen (армянский)",
        "K (Л)         ход верхней картой колоды, не глядя (армянский)"),
    "help.key.doubt": (
        "V             верю не верю: «I doubt it» about the latest face-down card",
        "V (М)         верю не верю: «сомневаюсь» в последней закрытой карте"),
    "help.key.exchange": (
        "X             покерный: swap the two marked cards with the stock's top two",
        "X (Ч)         покерный: поменять две отмеченные карты на две верхние из колоды"),
    "help.key.send_back": (
        "G             щелковский, over ten thrown in: send the chosen card back to its\n"
        "              thrower (Enter too); you beat the ten left",
        "G (П)         щелковский, подкинуто больше десяти: вернуть выбранную карту\n"
        "              тому, кто её подкинул (и Enter); отбиваете оставшиеся десять"),
    "help.key.dummy": (
        "E             с болваном: the keys act on the dummy's hand while you play it:\n"
        "              its card's number or ← → Enter throws it in, P passes for it\n"
        "              (if it may attack and defend: it leads and beats; B, T take)",
        "E (У)         с болваном: клавиши — для карт болвана, пока им играете вы:\n"
        "              номер его карты или ← → Enter — подкинуть её, P — пас за него\n"
        "              (если он ходит и отбивается: ход, отбой; B бить, T беру)"),
    "help.key_tail": (
        "N             next game, once this one is over\n"
        "L             switch language   ? help   Q leave   Ctrl-C quit\n"
        "Mouse         click a card to play it, an attack card to choose it",
        "N (Т)         следующая партия, когда эта окончена\n"
        "L (Д)         язык   ? помощь   Q (Й) выйти   Ctrl-C выход из игры\n"
        "Мышь          щелчок по карте — ход ею, по карте на столе — выбрать её"),
    "help.form_lines": (
        "↑ ↓  Tab      choose a field\n"
        "← →  Space    change it\n"
        "Enter         start practice, or open the network table (on its button)\n"
        "Esc           back to the lobby   L switch language",
        "↑ ↓  Tab      выбрать поле\n"
        "← →  Пробел   изменить его\n"
        "Enter         начать: тренировка с ботами или стол в сети (на его кнопке)\n"
        "Esc           назад в лобби   L (Д) язык"),
    "help.ranks": ("J Q K A: jack, queen, king, ace", "В Д К Т: валет, дама, король, туз"),
    "help.ranks_ascii": ("J Q K A: jack, queen, king, ace; T: ten",
                         "В Д К Т: валет, дама, король, туз"),
    "help.lobby_lines": (
        "↑ ↓           choose a table\n"
        "Enter         join the chosen table (none listed: play against bots)\n"
        "Mouse         a click on a table joins it\n"
        "C             create a table (rules, players, options, bots)\n"
        "P             play alone against bots right now\n"
        "B             in your table's waiting room: bots take the free seats\n"
        "L             switch language   Q quit",
        "↑ ↓           выбрать стол\n"
        "Enter         сесть за выбранный стол (столов нет — игра с ботами)\n"
        "Мышь          щелчок по столу — сесть за него\n"
        "C (С)         создать стол (правила, игроки, настройки, боты)\n"
        "P (З)         сразу сыграть с ботами\n"
        "B (И)         за своим столом до игры: боты на свободные места\n"
        "L (Д)         язык   Q (Й) выход"),
    "help.at_table": ("At a table", "За столом"),
    "help.at_table_short": ("At a table, ? lists the keys its rules use.",
                            "За столом ? покажет клавиши для его правил."),
}

SUIT_NAMES: dict[str, tuple[str, ...]] = {"en": SUIT_NAMES_EN, "ru": SUIT_NAMES_RU}
"""The suits in words by language (the engine's lists, which the game log uses too)."""


class Messages:
    """The catalogue in one language: `messages("key", field=value)`."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGS:
            raise ValueError(f"language {lang!r} is not one of {', '.join(LANGS)}")
        self.lang = lang
        self._index = LANGS.index(lang)

    def __call__(self, key: str, **fields: object) -> str:
        entry = CATALOGUE.get(key)
        if entry is None:
            return key  # an unknown notice is shown as it came
        return self._format(entry[self._index], fields)

    def _format(self, text: str, fields: dict[str, object]) -> str:
        if not fields:
            return text
        count = fields.get("n")
        if isinstance(count, int):
            fields = {"cards": self.cards_word(count), **fields}
        return text.format(**fields)

    def cards_word(self, n: int) -> str:
        """"card" with a count: one card, 2 cards; 1 карта, 2 карты, 5 карт, 21 карта."""
        return cards_word(self.lang, n)

    def has(self, key: str) -> bool:
        return key in CATALOGUE


class Look:
    """How the UI speaks and draws right now: the language and the suit notation.

    `cyrillic` is False on a terminal that cannot show Russian letters: the UI then stays in
    English (transliterating a whole Russian screen would change every column's width)."""

    def __init__(self, lang: str, ascii_only: bool, *, cyrillic: bool = True) -> None:
        self.cyrillic = cyrillic
        self.set_lang(lang)
        self.ascii_only = ascii_only

    def set_lang(self, lang: str) -> None:
        self.messages = Messages(lang)
        self.lang = lang

    def toggle_lang(self) -> bool:
        """Switch between the languages; False (and no change) when Russian cannot be shown."""
        if self.lang == "en" and not self.cyrillic:
            return False
        self.set_lang("en" if self.lang == "ru" else "ru")
        return True


BOT_NAMES: dict[str, tuple[str, ...]] = {
    "en": ("Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zoya", "Ilya", "Kira"),
    "ru": ("Аня", "Борис", "Вера", "Глеб", "Даша", "Егор", "Зоя", "Илья", "Кира"),
}
PLAYER_NAME = {"en": "Player", "ru": "Игрок"}
"""The human's seat name when neither `--name` nor the login name gives one."""


def default_names_in(snapshot: TableSnapshot, lang: str) -> TableSnapshot:
    """The table as this player reads it in `lang`: a bot with a default name is that bot in
    this language (after `L`, «Аня» for "Anna") and so is this player's own default name; a
    name a person gave never changes. Only the screen sees this (the others keep their names
    for the table), and a name stays as it came where its translation would be another seat's.
    """
    def shown(info: SeatInfo) -> str:
        defaults = BOT_NAMES if info.is_bot else (
            {k: (v,) for k, v in PLAYER_NAME.items()} if info.seat == snapshot.my_seat else {})
        for names in defaults.values():
            if info.name in names:
                return defaults[lang][names.index(info.name)]
        return info.name

    proposed = [shown(info) for info in snapshot.seats]
    names = [new if new == info.name or proposed.count(new) == 1 else info.name
             for info, new in zip(snapshot.seats, proposed, strict=True)]
    if names == [info.name for info in snapshot.seats]:
        return snapshot
    return replace(snapshot, seats=tuple(
        replace(info, name=name) for info, name in zip(snapshot.seats, names, strict=True)))
