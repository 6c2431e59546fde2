"""A person's seat at a networked table, as a `Session` for the UI.

`HumanPlayer` is the game runner's player for a seat a person plays: after every commit it
publishes a `TableSnapshot` built from the committed table (the seat's own partial view, its
legal moves, whom the table waits for, what the deck is doing), and `act` turns the person's
choice into a move — refused at once, with the engine's reason, when it is not legal.
"""

from __future__ import annotations

import math

import trio

from p2p_durak import engine as eng
from p2p_durak.engine.actions import pick_position
from p2p_durak.node.api import LogLine, SeatInfo, TableSnapshot
from p2p_durak.node.game import GameRunner, Player, Turn
from p2p_durak.node.local_session import EXTRA_POGONY, EXTRA_SCORES
from p2p_durak.node.narrate import dummy_name
from p2p_durak.protocol.messages import TurnTimer
from p2p_durak.protocol.table import (
    Moved,
    NextGame,
    SeriesOver,
    SeriesScore,
    TableEvent,
    TableMachine,
)

LOG_LINES = 40


def series_extra(score: SeriesScore) -> dict[str, str]:
    """The series score's epaulettes and points, as the end screen reads them."""
    extra = {}
    if score.pogony:
        extra[EXTRA_POGONY] = ",".join(map(str, score.pogony))
    if score.points:
        extra[EXTRA_SCORES] = ",".join(map(str, score.points))
    return extra


def activity_of(table: TableMachine) -> tuple[str, tuple[int, int] | None]:
    """What the table is doing, for the status line, and how far along."""
    pending = table.deck.pending_op()
    state = table.state
    if state is not None and state.phase == eng.Phase.OVER:
        return ("audit" if table.audit is None else "over"), None
    if pending is None:
        return ("playing" if state is not None else "keys"), None
    step = pending.op.step
    if step == "keys":
        return "keys", None
    if step == "seating":
        return "seating", None
    if step == "shuffle":
        return "shuffling", (len(pending.got), table.n_parties)
    if step == "deal":
        return "dealing", (len(pending.got), len(pending.due))
    return "playing", None


class HumanPlayer(Player):
    def __init__(self, *, table_name: str, preset_id: str, names: list[str],
                 bots: dict[int, str] | None = None, clocks: TurnTimer | None = None) -> None:
        self.table_name = table_name
        self.preset_id = preset_id
        self.names = names  # by party
        self.bots = bots or {}  # party -> bot level, for the seat list
        self.clocks = clocks  # the table's turn timer and grace period, shown to the player
        self._send, self._receive = trio.open_memory_channel[TableSnapshot](math.inf)
        self._turn: Turn | None = None
        self._runner: GameRunner | None = None
        self._log: list[LogLine] = []
        self._table: TableMachine | None = None
        self._notice: tuple[str, str] | None = None  # English, Russian
        self._voted = False  # chose already whether to play the game after this one
        self._stop_when_due = False  # left during the game's audit: stop once asked
        # set once the table has committed that this party is gone: its graceful leave, or
        # anyone's choice to stop after a game (the series stops with it, whatever the others
        # say: waiting for their votes would hold a quitting player for the vote's timeout)
        self.off_table = trio.Event()
        self._away: dict[int, str] = {}  # parties without a link for a while, and why
        self.diagnosis: str | None = None

    # ---- Session ---------------------------------------------------------------------------

    @property
    def snapshots(self) -> trio.MemoryReceiveChannel[TableSnapshot]:
        return self._receive

    async def act(self, action: eng.Action) -> None:
        turn, runner = self._turn, self._runner
        if turn is None or runner is None:
            table = self._table
            if table is not None and table.state is not None and pick_position(action) < 0:
                eng.apply(table.state, action)  # the rules' own reason where they refuse it
            raise eng.IllegalAction(eng.Reason.NOT_YOUR_TURN, "wait for your turn")
        state = turn.table.state
        assert state is not None
        if pick_position(action) >= 0:
            # оборотный: a card he cannot see, by its position; the table opens it
            if action not in turn.legal:
                raise eng.IllegalAction(eng.Reason.NOT_IN_HAND, "no such pick now")
        else:
            eng.apply(state, action)  # raises IllegalAction with its reason; nothing changes
        self._turn = None
        await runner.move(turn.seq, action)

    async def next_game(self) -> None:
        """Play the next game of the series (every player must choose to; one who stops stops
        the table)."""
        runner, table = self._runner, self._table
        if runner is None or table is None or table.party not in table.vote_due():
            raise eng.IllegalAction(eng.Reason.WRONG_PHASE, "the game is not over yet")
        self._voted = True
        self._notice = ("waiting for the others to play on",
                        "ждём, решат ли остальные играть дальше")
        self._publish()
        await runner.choose_next(True)

    async def leave(self) -> None:
        """Leave the table. After a game: this player stops, and so does the table. Mid-game:
        a graceful leave (the node finishes the bout with quick legal moves, then leaves
        between bouts: its hand goes to the discard and the others play on; with two at the
        table it concedes). The node keeps running until its leave is committed."""
        runner, table = self._runner, self._table
        self._turn = None
        if runner is None or table is None:
            return
        if table.party in table.vote_due():
            await self._stop(runner)
        elif table.state is not None and table.state.phase == eng.Phase.OVER:
            # the game is over but its audit runs on: no leave fits now, the stop does once
            # the choice is due (`after_game`)
            self._stop_when_due = True
        elif not table.series_over and table.party not in table.left:
            await runner.leave_table()

    # ---- Player ----------------------------------------------------------------------------

    async def update(self, table: TableMachine, events: tuple[TableEvent, ...]) -> None:
        self._table = table
        seq = len(table.history)
        for event in events:
            if isinstance(event, Moved):
                self._log.extend(LogLine(seq, ev) for ev in event.events)
            elif isinstance(event, NextGame):
                self._log.clear()
                self._voted = False
                self._notice = None
            elif isinstance(event, SeriesOver) and event.abandoned:
                self._notice = self._forfeit_notice(event.abandoned)
            elif isinstance(event, SeriesOver):
                chose = ", ".join(self.names[p] for p in event.stopped
                                  if p not in event.timed_out)
                late = ", ".join(self.names[p] for p in event.timed_out)
                why = [(f"{chose} chose not to play on", f"{chose} не стали играть дальше")
                       ] if chose else []
                why += [(f"{late} did not choose in time (counted as stopping)",
                         f"{late} не ответили вовремя (считается, что не играют дальше)")
                        ] if late else []
                self._notice = ("the table stopped: " + "; ".join(en for en, _ in why),
                                "игра окончена: " + "; ".join(ru for _, ru in why))
        del self._log[:-LOG_LINES]
        if table.party in table.left or False in table.votes.values() or table.series_over:
            self.off_table.set()
        if self._turn is not None and self._turn.table is not table:
            self._turn = None  # the table moved on: that turn is gone
        self._publish()

    async def turn(self, turn: Turn, runner: GameRunner) -> None:
        self._turn, self._runner = turn, runner
        self._publish()

    async def after_game(self, table: TableMachine, runner: GameRunner) -> None:
        self._table, self._runner = table, runner  # the person chooses: `next_game` or `leave`
        if self._stop_when_due:
            await self._stop(runner)
        self._publish()

    async def _stop(self, runner: GameRunner) -> None:
        if not self._voted:
            self._voted = True
            await runner.choose_next(False)

    async def finished(self, table: TableMachine, diagnosis: str | None) -> None:
        self._table = table
        self.diagnosis = diagnosis
        if diagnosis is not None:
            abandoned = self._runner.abandoned if self._runner is not None else None
            self._notice = self._abandoned_notice(*abandoned) if abandoned is not None \
                else (f"The game was stopped: {diagnosis}", f"Игра остановлена: {diagnosis}")
        self._turn = None
        self._publish()

    def _forfeit_notice(self, parties: tuple[int, ...]) -> tuple[str, str]:
        """Every other player's node gave up waiting for them: they lose the game by forfeit,
        and the table stops."""
        who = ", ".join(self.names[p] if p < len(self.names) else f"party {p}" for p in parties)
        return (f"{who} abandoned the game and loses it (every other player waited in vain). "
                "The game is over.",
                f"Игрок {who} бросил партию, ему засчитано поражение (остальные ждали напрасно). "
                "Игра окончена.")

    def _abandoned_notice(self, party: int, what: str, grace: float) -> tuple[str, str]:
        """The grace period ended the game: whom the table lost, by name, and how (the verdict
        names a party and its key fingerprint, for the log, not for the person at the table).
        "Игрок" agrees with the verb whoever plays, so the Russian needs no gender."""
        who = self.names[party] if party < len(self.names) else f"party {party}"
        if what == "return":
            return (f"{who} left the game (did not come back within {grace:g} s). "
                    "The game is over.",
                    f"Игрок {who} вышел из игры (не вернулся за {grace:g} с). Игра окончена.")
        return (f"{who} stopped answering (no answer within {grace:g} s). The game is over.",
                f"Игрок {who} перестал отвечать (нет ответа за {grace:g} с). Игра окончена.")

    def attach(self, runner: GameRunner) -> None:
        self._runner = runner

    async def connections(self, away: dict[int, str]) -> None:
        self._away = away
        self._publish()  # also before the first commit: a table that cannot start says why

    def away_note(self) -> tuple[str, str] | None:
        """Whom the table waits for without a link, and why (English, Russian)."""
        if not self._away:
            return None
        names = {party: self.names[party] if party < len(self.names) else f"party {party}"
                 for party in self._away}
        if self.diagnosis is not None:  # the game is over: nobody is waited for any more
            return ("; ".join(f"{names[p]}, not connected: {why}"
                              for p, why in self._away.items()),
                    "; ".join(f"{names[p]}, нет связи: {why}" for p, why in self._away.items()))
        return ("; ".join(f"waiting for {names[p]}, not connected: {why}"
                          for p, why in self._away.items()),
                "; ".join(f"ждём {names[p]}, нет связи: {why}" for p, why in self._away.items()))

    def waiting_room(self, rules: eng.RuleSet, seats: int, names: list[str],
                     notice: str | None = None, my_seat: int = 0,
                     notice_ru: str | None = None) -> None:
        """Before the game: who is seated so far (the host updates it as players join);
        `my_seat`: where this person sits among `names`."""
        self.names = names
        infos = tuple(SeatInfo(i, name, i in self.bots, self.bots.get(i, ""))
                      for i, name in enumerate(names))
        waiting = tuple(range(len(names), seats))
        self._send.send_nowait(TableSnapshot(
            table_name=self.table_name, preset_id=self.preset_id, rules=rules, seats=infos,
            my_seat=my_seat, state=None, waiting_for=waiting, activity="lobby",
            progress=(len(names), seats), notice=notice, notice_ru=notice_ru,
            clocks=self.clocks))

    def seated(self, names: list[str], bots: dict[int, str]) -> None:
        """The game starts: everyone's names by party, and which parties are bots."""
        self.names = names
        self.bots = bots

    # ---- snapshots -------------------------------------------------------------------------

    def _publish(self) -> None:
        table = self._table
        if table is None and self._runner is not None:
            table = self._runner.log.state  # nothing committed yet: the genesis table
        if table is None:
            return
        self._send.send_nowait(self.snapshot(table))

    def snapshot(self, table: TableMachine) -> TableSnapshot:
        state = table.state
        seats: list[SeatInfo] = []
        if table.seat_of_party:
            for seat in range(table.n_seats):
                party = table.party_of_seat[seat]
                if party < 0:  # с болваном: the dummy, played by its controller
                    seats.append(SeatInfo(seat, dummy_name("en"), is_dummy=True))
                    continue
                team = state.game.team[seat] if state is not None and \
                    state.game.rules.teams != "none" else None
                seats.append(SeatInfo(seat, self.names[party], party in self.bots,
                                      self.bots.get(party, ""),
                                      connected=party not in self._away, team=team))
        activity, progress = activity_of(table)
        score = table.score
        waiting = tuple(table.seat_of_party[p] for p in table.waiting_for()
                        if table.seat_of_party)
        if self.diagnosis is not None:  # the game stopped for good: it waits for nobody
            activity, waiting = "halted", ()
        legal = self._turn.legal if self._turn is not None else ()
        deadline = self._runner.seconds_left() if self._runner is not None else None
        away = self.away_note()
        due: tuple[int, ...] = ()
        # a deck step: whose part it waits for (once the game stopped: whose part it was stuck
        # on; the screen no longer says "waiting for")
        if table.deck.pending_op() is not None:
            due = tuple(p for p in table.deck_due() if p != table.party)
            if self._runner is not None:
                due = self._runner.waiting_on(due)
        owing = tuple(self.names[p] if p < len(self.names) else f"party {p}" for p in due)
        return TableSnapshot(
            table_name=self.table_name, preset_id=self.preset_id, rules=table.rules,
            seats=tuple(seats), my_seat=table.my_seat, state=state, legal=legal,
            waiting_for=waiting, activity=activity, progress=progress, deck_waits_for=owing,
            deadline=deadline,
            log=tuple(self._log), notice=self._notice[0] if self._notice else None,
            notice_ru=self._notice[1] if self._notice else None, clocks=self.clocks,
            away=away[0] if away else None, away_ru=away[1] if away else None,
            duraks=score.duraks, game_number=table.game_number, extra=series_extra(score))
