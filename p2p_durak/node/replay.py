"""Saved games: replay a transcript into words, and audit it.

A transcript proves itself: the audit re-verifies every signature and hash link of the log,
re-applies every entry through the table machine (so every move is checked by the rules engine
and every card opening, shuffle and deal by the deck's proofs), and checks the final
certificate. The auditor sits in no seat: it learns only what every player learned.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from p2p_durak.engine import RuleError, RuleSet
from p2p_durak.engine.presets import PRESETS
from p2p_durak.node.narrate import Narrator
from p2p_durak.protocol.envelope import decode_envelope
from p2p_durak.protocol.errors import ProtocolError
from p2p_durak.protocol.messages import Start
from p2p_durak.protocol.table import AuditFinished, Seated, SeriesOver, TableMachine
from p2p_durak.protocol.table_log import TableLogMachine
from p2p_durak.protocol.transcript import AuditError, Transcript, TranscriptError, audit


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    text: str
    table: TableMachine | None = None


def _rules_for(start: Start) -> RuleSet:
    for preset in PRESETS.values():
        if preset.rules.rules_hash() == start.rules_hash.hex():
            return preset.rules
    raise RuleError("rules", "the transcript's rules are not a known preset",
                    "правила записи — не известный вариант")


def audit_file(data: bytes, rules: RuleSet | None = None, lang: str = "en") -> Verdict:
    def t(en: str, ru: str) -> str:
        return ru if lang == "ru" else en

    try:
        transcript = Transcript.load(data)
        start_env = decode_envelope(transcript.start)
        start = start_env.message
        if not isinstance(start, Start):
            return Verdict(False, t("not a game transcript: the genesis is not a Start",
                                    "это не запись игры: первая запись — не Start"))
        rules = rules or _rules_for(start)
        if rules.rules_hash() != start.rules_hash.hex():
            return Verdict(False, t("the rules given are not the rules this game was played by",
                                    "данные правила — не те, по которым шла эта игра"))
        observer = TableMachine(start.game, -1, len(start.players), rules,
                                random.Random(0).randbytes)
        report = audit(transcript, TableLogMachine(), observer)
    except (TranscriptError, ProtocolError) as exc:
        return Verdict(False, t("not a transcript: ", "это не запись игры: ") + str(exc))
    except RuleError as exc:
        return Verdict(False, t(f"cannot audit: {exc.message_en}",
                                f"проверить нельзя: {exc.message_ru}"))
    except AuditError as exc:  # (the reason is the protocol's, in English: it names a field)
        return Verdict(False, t(f"FAILED at position {exc.seq}: {exc}",
                                f"ОШИБКА в записи {exc.seq}: {exc}"))
    table = report.state
    players, entries = len(start.players), len(transcript.entries)
    lines = [t(f"transcript of game {start.game.hex()} with {players} players: "
               f"{entries} entries, every signature, hash link and move verified",
               f"запись игры {start.game.hex()}, игроков {players}: записей {entries}, "
               "каждая подпись, ссылка хэша и ход проверены")]
    if report.rejected:
        lines.append(t(f"{len(report.rejected)} intents were refused at their position "
                       "(raced or illegal), identically for every player",
                       f"отклонено намерений: {len(report.rejected)} (опоздали или не по "
                       "правилам), одинаково у всех игроков"))
    if table.game_number > 1:
        lines.append(t(f"a series of {table.game_number} games at one table (this transcript "
                       "holds them all; the last one is told below)",
                       f"серия из {table.game_number} партий за одним столом (в записи все; "
                       "ниже — последняя)"))
    audits = [e for e in table.history if isinstance(e, AuditFinished)]
    state = table.state
    if state is not None and state.result is not None:
        names = [p.name for p in start.players]
        narrator = Narrator(state.game, names, lang)
        seated = next((e for e in reversed(table.history) if isinstance(e, Seated)), None)
        if seated is not None:
            narrator.seated(seated, names, state.game)
        from p2p_durak.engine import events as E

        over = E.GameOver(state.result.durak, state.result.draw, state.result.pogony,
                          state.result.scores, state.result.winners)
        lines.append(narrator.engine_event(over))
    for event in table.history:
        if isinstance(event, SeriesOver) and event.abandoned:
            lines += [t(f"FORFEIT: game {table.game_number}, {start.players[p].name} (party {p}) "
                        "abandoned the game: every other player claimed it in the log, and it "
                        "loses the game",
                        f"ПОРАЖЕНИЕ: партия {table.game_number}, {start.players[p].name} "
                        f"(игрок {p}) бросил партию: все остальные заявили об этом в записи, "
                        "ему засчитано поражение") for p in event.abandoned]
    if table.audit is not None:
        cheats = [(n, c) for n, a in enumerate(audits, start=1) for c in a.cheaters]
        if cheats:
            lines += [t(f"CHEAT: game {n}, seat {s}: {why} (he loses the game by forfeit)",
                        f"ОБМАН: партия {n}, место {s}: {why} (ему засчитано поражение)")
                      for n, (s, why) in cheats]
            return Verdict(False, "\n".join(lines), table)
        lines.append(t("the deck audit (every key published) found every claim honest",
                       "проверка колоды (все ключи открыты): все заявки честные"))
    else:
        lines.append(t("the game did not reach its end-of-game deck audit",
                       "игра не дошла до проверки колоды в конце"))
    return Verdict(True, "\n".join(lines), table)


def replay_lines(data: bytes, lang: str = "en", rules: RuleSet | None = None) -> list[str]:
    verdict = audit_file(data, rules)
    if verdict.table is None:
        raise ValueError(verdict.text)
    table = verdict.table
    start = decode_envelope(Transcript.load(data).start).message
    assert isinstance(start, Start)
    names = [p.name for p in start.players]
    narrator = Narrator(None, names, lang)
    lines = []
    for event in table.history:
        if isinstance(event, Seated):
            assert table.state is not None
            lines.append(narrator.seated(event, names, event.game or table.state.game))
        else:
            lines.extend(narrator.lines(event, names))
    lines.append(verdict.text.splitlines()[-1])
    return lines
