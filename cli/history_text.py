"""The history of the evening in words, English and Russian: `durak history`'s report (its own
words, as a printing command's) and the lobby's lines of tonight's scoreboard (the UI
catalogue's `lobby.tonight*`)."""

from __future__ import annotations

import time
from collections.abc import Sequence

from p2p_durak.cli.i18n import Messages
from p2p_durak.engine.presets import PRESETS
from p2p_durak.node.history import DUMMY, NETWORK, GameRecord, PlayerRecord
from p2p_durak.node.scoreboard import TONIGHT_HOURS, Scoreboard, Tally

TEXT: dict[str, tuple[str, str]] = {
    "recent": ("Recent games (the latest first):", "Последние партии (сначала новые):"),
    "none": ("No finished games yet: play one (durak), and it is kept here.",
             "Сыгранных партий пока нет: сыграйте (durak), и она появится здесь."),
    "network": ("network", "по сети"),
    "practice": ("practice", "тренировка"),
    "durak": ("the durak: {names}", "дурак: {names}"),
    "draw": ("a draw: no durak", "ничья: дурака нет"),
    "game_of_series": ("game {n} of the series", "партия {n} серии"),
    "series": ("series: {score}", "счёт серии: {score}"),
    "players": ("players: {names}", "игроки: {names}"),
    "you": ("you", "вы"),
    "bot": ("bot", "бот"),
    "bot_level": ("bot, {level}", "бот, {level}"),
    "changed": ("{variant}, own rules", "{variant}, свои правила"),
    "board": ("Scoreboard: {games} · the durak how often:",
              "Итог: {games} · кто сколько раз был дураком:"),
    "board_tonight": ("Tonight's scoreboard (the last {hours:g} h): {games} · the durak how "
                      "often:",
                      "Итог вечера (последние {hours:g} ч): {games} · кто сколько раз был "
                      "дураком:"),
    "tally": ("{name}: {duraks} of {games}", "{name}: {duraks} из {games}"),
    "versus": ("You against each opponent:", "Вы против каждого соперника:"),
    "versus_line": ("{name}: {games} together; {name} the durak {their}, you {mine}",
                    "{name}: {games} вместе; {name} — дурак {their} р., вы — {mine} р."),
    "variants": ("Per variant:", "По вариантам:"),
    "variant_line": ("{variant}: {games}; the durak: {names}",
                     "{variant}: {games}; дурак: {names}"),
    "draws": ("{n} of them drawn", "из них вничью: {n}"),
    "skipped": ("not indexed: {path}: {why}", "не учтено: {path}: {why}"),
    "rebuilt": ("(the history was made again from the saved games)",
                "(история собрана заново из сохранённых партий)"),
}


def say(lang: str, key: str, **fields: object) -> str:
    text = TEXT[key][1 if lang == "ru" else 0]
    return text.format(**fields) if fields else text


def games_word(lang: str, n: int, *, of: bool = False) -> str:
    """A count of games: 1 game, 2 games; 1 партия, 2 партии, 5 партий, 21 партия; after
    "of" («из»), Russian's genitive: из 1 партии, из 2 партий, из 21 партии."""
    if lang != "ru":
        return f"{n} game" if n == 1 else f"{n} games"
    if of:
        return f"{n} партии" if n % 10 == 1 and n % 100 != 11 else f"{n} партий"
    if n % 10 == 1 and n % 100 != 11:
        return f"{n} партия"
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return f"{n} партии"
    return f"{n} партий"


def variant_name(variant: str, lang: str, changed: bool = False) -> str:
    preset = PRESETS.get(variant)
    name = preset.name(lang) if preset is not None else variant
    return say(lang, "changed", variant=name) if changed else name


def _who(player: PlayerRecord, lang: str) -> str:
    if player.me:
        return f"{player.name} ({say(lang, 'you')})"
    if player.bot and player.bot != DUMMY:
        return f"{player.name} ({say(lang, 'bot')})"
    return player.name


def _names(tallies: Sequence[Tally], lang: str, *, durak_only: bool = True) -> str:
    shown = [t for t in tallies if t.duraks or not durak_only]
    if not shown:
        return "—"
    return ", ".join(f"{t.name} {t.duraks}" for t in shown)


def game_lines(game: GameRecord, lang: str) -> list[str]:
    """One finished game in two lines."""
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.finished_at))
    kind = say(lang, "network" if game.kind == NETWORK else "practice")
    if game.draw or not game.durak:
        outcome = say(lang, "draw")
    else:
        outcome = say(lang, "durak", names=", ".join(game.players[i].name for i in game.durak))
    head = f"  {when}  {game.table} · {variant_name(game.variant, lang, game.variant_changed)}" \
           f" · {kind} · {outcome}"
    seated = [(p, n) for p, n in zip(game.players, game.series_duraks, strict=True)
              if p.bot != DUMMY]
    detail = say(lang, "players", names=", ".join(_who(p, lang) for p, _ in seated))
    if game.number > 1:
        score = ", ".join(f"{p.name} {n}" for p, n in seated)
        detail += f"; {say(lang, 'game_of_series', n=game.number)}, " \
                  f"{say(lang, 'series', score=score)}"
    return [head, f"      {detail}"]


def board_lines(board: Scoreboard, lang: str, *, tonight: bool = False) -> list[str]:
    games = games_word(lang, board.games)
    if board.draws:
        games += f" ({say(lang, 'draws', n=board.draws)})"
    title = say(lang, "board_tonight", hours=TONIGHT_HOURS, games=games) if tonight \
        else say(lang, "board", games=games)
    lines = [title]
    lines += ["  " + say(lang, "tally", name=_who_tally(t, lang), duraks=t.duraks,
                         games=games_word(lang, t.games, of=True)) for t in board.players]
    if board.versus:
        lines.append(say(lang, "versus"))
        lines += ["  " + say(lang, "versus_line", name=v.opponent.name,
                             games=games_word(lang, v.opponent.games), their=v.opponent.duraks,
                             mine=v.my_duraks) for v in board.versus]
    if board.variants:
        lines.append(say(lang, "variants"))
        lines += ["  " + say(lang, "variant_line", variant=variant_name(v.variant, lang),
                             games=games_word(lang, v.games), names=_names(v.players, lang))
                  for v in board.variants]
    return lines


def _who_tally(tally: Tally, lang: str) -> str:
    if tally.me:
        return f"{tally.name} ({say(lang, 'you')})"
    if tally.bot:
        return f"{tally.name} ({say(lang, 'bot')})"
    return tally.name


def tonight_lines(board: Scoreboard | None, messages: Messages) -> list[str]:
    """The lobby's lines of tonight's scoreboard (none before the evening's first game)."""
    if board is None or not board.games:
        return []
    lang = messages.lang
    lines = [messages("lobby.tonight", games=games_word(lang, board.games),
                      names=_names(board.players, lang))]
    me = board.me
    if me is not None:
        lines.append(messages("lobby.tonight_you", name=me.name, duraks=me.duraks,
                              games=games_word(lang, me.games, of=True)))
    return lines
