"""Compendium variants over the mental-poker deck: a whole game at every party's machine agrees
and the end-of-game audit finds nothing (modelled on test_table_machine)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from p2p_durak import engine as eng
from p2p_durak.engine import actions as A
from p2p_durak.engine import events as E
from p2p_durak.engine.cards import NO_SUIT
from p2p_durak.engine.presets import get_preset, with_base_rules
from p2p_durak.engine.state import BLACK_PAIR, FACE_DOWN, RED_PAIR
from p2p_durak.protocol import codec
from p2p_durak.protocol.table import MOVE, AuditFinished, Moved, TableMachine, TableReject

from .test_table_machine import _machines, _play_agreed, _refused_by_the_others, _rng, _run, _table

VARIANTS = [("perevodnoy_2", 2), ("perevodnoy_2", 3), ("parnomastny", 3), ("korolevsky", 2),
            ("pustoy", 3), ("arifm_progressiya", 2), ("arifm_progressiya", 4),
            ("navalenny", 2), ("navalenny", 3), ("navalenny", 5), ("chukotsky", 2),
            ("chukotsky", 6),
            ("beskozyrny", 2), ("beskozyrny", 4), ("kozyrny", 2), ("kozyrny", 4),
            ("amerikansky", 2), ("amerikansky", 4), ("dorozhny", 2), ("dorozhny", 5),
            ("dvukhkozyrny", 2), ("dvukhkozyrny", 3), ("dvukhkozyrny", 5),
            ("nevidimy", 2), ("nevidimy", 3), ("nevidimy", 5),
            ("magadansky", 2), ("magadansky", 4), ("magadansky", 6),
            ("otboyny", 2), ("otboyny", 3)]
VARIANTS += [("s_jokerom", 3), ("s_dvumya_jokerami", 2), ("pustyshka", 4), ("bolshoy", 2),
             ("zanudny", 3), ("treshka", 2), ("s_par", 3), ("s_par_pyaterka", 2)]
VARIANTS += [("ochkovy", 3), ("figurny", 2), ("figurny", 4), ("pogonny", 2), ("pogonny", 3),
             ("app_korol_govno", 3), ("krugovoy", 2), ("krugovoy", 3)]
VARIANTS += [("veryu_ne_veryu", 2), ("veryu_ne_veryu", 4), ("pokerny", 2)]


@pytest.mark.parametrize(("preset", "n"), VARIANTS)
def test_whole_game_agrees_and_audits_clean(preset: str, n: int) -> None:
    machines = _table(n, preset, seed=n + 40)
    _play_agreed(machines, seed=n + 40)


@pytest.mark.parametrize(("preset", "base", "n"), [("korolevsky", "perevodnoy", 3),
                                                   ("chukotsky", "prostoy", 2),
                                                   ("perevodnoy_2", "prostoy", 3),
                                                   ("kozyrny", "perevodnoy", 3),
                                                   ("dorozhny", "perevodnoy", 3),
                                                   ("veryu_ne_veryu", "perevodnoy", 3),
                                                   ("veryu_ne_veryu", "prostoy", 2)])
def test_a_base_rules_choice_agrees_and_audits_clean(preset: str, base: str, n: int) -> None:
    machines = _machines(n, with_base_rules(preset, base), seed=n + 60)
    _play_agreed(machines, seed=n + 60)


def recording_claims_audit(m: TableMachine) -> list[Sequence[int]]:
    """Record the cards the machine's end-of-game claims audit sees (every card public)."""
    opened: list[Sequence[int]] = []
    check = m._check_claims

    def recording(cards: Sequence[int]) -> AuditFinished:
        opened.append(cards)
        return check(cards)

    m._check_claims = recording  # type: ignore[method-assign]
    return opened


def _audited_cards(preset_id: str, seed: int) -> tuple[
        TableMachine, Sequence[int], Callable[[Sequence[int]], AuditFinished]]:
    """A clean two-seat game's first machine, the cards its end-of-game claims audit saw (every
    card public) and that audit, to tamper with the record and audit again."""
    machines = _table(2, preset_id, seed=seed)
    m = machines[0]
    check = m._check_claims
    opened = recording_claims_audit(m)
    _run(machines, seed=seed)
    assert m.audit == AuditFinished(())
    (cards,) = opened
    return m, cards, check


def test_a_false_lowest_card_claim_is_named_by_the_audit() -> None:
    """beskozyrny: a partial view takes another seat's lowest-card claim on trust; the audit,
    with every card public, names a claim that was not the claimant's lowest card."""
    from dataclasses import replace

    m, cards, check = _audited_cards("beskozyrny", seed=77)
    game = m.state.game if m.state is not None else None
    assert game is not None
    claim = m.claims[0]
    held = [cards[s] for s in claim.slots]
    highest = max(held, key=lambda c: (game.rank[c], c))
    m.claims[0] = replace(claim, card=highest)
    assert check(cards) == AuditFinished(((claim.seat, "showed a card that was not the lowest"),))


def test_kozyrny_swaps_the_trump_slot_and_every_draw_agrees() -> None:
    """козырной over the deck: the swapped-in card and the old trump card are both open, so the
    swap moves slots without a deck step; whoever draws the new trump card under the stock
    gets that slot, and every machine agrees to the audit."""
    from p2p_durak.engine import events as E
    from p2p_durak.protocol.table import Moved

    machines = _table(2, "kozyrny", seed=42)
    _run(machines, seed=42)
    swaps = [ev for m_ev in machines[0].history if isinstance(m_ev, Moved)
             for ev in m_ev.events if isinstance(ev, E.TrumpSwapped)]
    assert swaps, "no defended bout swapped the trump in this game"
    m = machines[0]
    assert m.deck.slots[m.trump_slot].card == swaps[-1].card
    for machine in machines:
        assert machine.audit == AuditFinished(())


def _until_trump_known(machines: list[TableMachine], seed: int) -> None:
    import random

    from .test_table_machine import _deliver

    rng = random.Random(seed)
    while machines[0].state is None or machines[0].state.phase <= eng.Phase.REVEAL_TRUMP:
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        assert due, "nobody owes anything before the trump is known"
        _deliver(machines, *rng.choice(due))


def test_nevidimy_only_the_suit_is_proven_and_the_card_stays_closed() -> None:
    """невидимый over the deck: the dealer's seat alone is shown the bottom stock card and proves
    its suit (a ClassOp); every machine takes the suit only from the verified proof, and no
    other party can open the card."""
    machines = _table(3, "nevidimy", seed=51)
    _until_trump_known(machines, 51)
    m = machines[0]
    assert m.state is not None
    bottom = m.stock_slots[-1]
    dealer_party = m.party_of_seat[m.state.game.dealer]
    viewers = {p for p, mm in enumerate(machines) if bottom in mm.deck.seen}
    assert viewers == {dealer_party}
    card = machines[dealer_party].deck.seen[bottom]
    assert {mm.state.trump for mm in machines if mm.state} == {m.state.game.suit[card]}
    assert all(mm.state is not None and mm.state.trump_card < 0 for mm in machines)
    assert m.deck.slots[bottom].card is None  # not open to everyone
    # and the dealer's own view did not take the bottom card into his hand
    dealer_state = machines[dealer_party].state
    assert dealer_state is not None
    assert not (dealer_state.hands[m.state.game.dealer] >> card) & 1


def test_nevidimy_a_false_suit_is_refused_by_the_proof() -> None:
    """A dealer who announces another suit cannot prove it: his proof is refused, naming him."""
    from p2p_durak.protocol import codec
    from p2p_durak.protocol.mental.errors import DeckUsageError
    from p2p_durak.protocol.mental.messages import ClassProof
    from p2p_durak.protocol.mental.ops import ClassOp
    from p2p_durak.protocol.mental.proofs import prove_one_of
    from p2p_durak.protocol.table import ANNOUNCE, DECK_STEP, TableReject

    machines = _table(2, "nevidimy", seed=52)
    rng_seed = 52
    import random

    from .test_table_machine import _deliver

    rng = random.Random(rng_seed)
    while not any(m._suit_due for m in machines):
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        _deliver(machines, *rng.choice(due))
    m = machines[0]
    assert m.state is not None
    dealer_party = m.party_of_seat[m.state.game.dealer]
    true_suit = machines[dealer_party]._seen_bottom_suit()
    false = codec.encode((ANNOUNCE, (true_suit + 1) % 4))
    other = 1 - dealer_party
    with pytest.raises(TableReject):  # only the dealer's seat announces
        machines[0].fork().apply(other, false)
    for machine in machines:
        machine.apply(dealer_party, false)
    # an honest deck will not make a false proof; a cheater's is forged by hand
    with pytest.raises(DeckUsageError):
        machines[dealer_party].owed()
    deck = machines[dealer_party].deck
    op = deck.pending_op()
    assert op is not None
    assert isinstance(op.op, ClassOp)
    c1, targets = deck.class_statement(op.op.slot, dealer_party, op.op.candidates)
    forged = prove_one_of(deck.ctx(op.op.step, dealer_party), deck._secret, deck.public_key, c1,
                          targets, 0, deck.rng)
    message = ClassProof(deck.game_id, op.op.step, dealer_party, op.op.slot, op.op.candidates,
                         forged)
    proof = codec.encode((DECK_STEP, codec.encode(message.to_wire())))
    for machine in machines:
        if machine.party != dealer_party:
            with pytest.raises(TableReject) as caught:
                machine.apply(dealer_party, proof)
            assert (caught.value.party, caught.value.code) == (dealer_party, "bad-proof")
    assert all(mm.state is not None and mm.state.phase == eng.Phase.REVEAL_TRUMP
               for mm in machines if mm.party != dealer_party)


def test_nevidimy_games_where_the_dealer_draws_the_bottom_card_finish() -> None:
    """The dealer's seat, having seen the bottom card, draws it without a new deck step."""
    from p2p_durak.engine import events as E
    from p2p_durak.protocol.table import Moved

    dealer_drew_last = 0
    for seed in range(70, 76):
        machines = _table(2, "nevidimy", seed=seed)
        _run(machines, seed=seed)
        m = machines[0]
        assert m.state is not None
        draws = [ev.seat for h in m.history if isinstance(h, Moved) for ev in h.events
                 if isinstance(ev, E.Drew)]
        dealer_drew_last += bool(draws) and draws[-1] == m.state.game.dealer
        assert all(mm.audit == AuditFinished(()) for mm in machines)
    assert dealer_drew_last


# Seeds whose shuffle turns a special card as trump (found by trying seeds; the test checks
# that the card was indeed turned, so a change of the shuffle cannot make it pass vacuously).
@pytest.mark.parametrize(("preset", "n", "seed", "turned"), [
    ("s_jokerom", 2, 156, "reinserted"),       # a joker goes to the middle, the next is turned
    ("s_dvumya_jokerami", 3, 113, "pair"),     # a black joker: spades and clubs are trump
    ("pustyshka", 2, 156, "no trump"),         # the blank: a game without trumps
])
def test_a_special_card_turned_as_trump_over_the_deck(preset: str, n: int, seed: int,
                                                      turned: str) -> None:
    machines = _table(n, preset, seed=seed)
    _run(machines, seed=seed)
    events = [e for h in machines[0].history if isinstance(h, Moved) for e in h.events]
    trump = next(e for e in events if isinstance(e, E.TrumpRevealed))
    game = machines[0].state.game if machines[0].state is not None else None
    assert game is not None
    if turned == "reinserted":
        (moved,) = [e for e in events if isinstance(e, E.TrumpReinserted)]
        assert game.suit[moved.card] < 0
        assert game.suit[trump.card] >= 0
        # every party's deck put the joker's slot where the engine put the card
        for m in machines:
            assert m.deck.slots[m.trump_slot].card == trump.card
    elif turned == "pair":
        assert game.suit[trump.card] < 0
        assert trump.suit in (BLACK_PAIR, RED_PAIR)
    else:
        assert game.suit[trump.card] < 0
        assert trump.suit == NO_SUIT
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    for m in machines:
        assert m.audit == AuditFinished(())


def test_a_lead_below_the_highest_rank_is_named_by_the_audit() -> None:
    """занудный: another seat's lead is checked by a partial view only against the cards it
    knows of that hand; the audit, with every card public, names a lead that was not of the
    highest rank in the hand."""
    m, cards, check = _audited_cards("zanudny", seed=81)
    game = m.state.game if m.state is not None else None
    assert game is not None
    index, (seat, _led, slots) = next(
        (i, entry) for i, entry in enumerate(m.lead_checks)
        if len({game.rank[cards[s]] for s in entry[2]}) > 1)
    lowest = min((cards[s] for s in slots), key=lambda c: game.rank[c])
    m.lead_checks[index] = (seat, lowest, slots)
    assert check(cards) == AuditFinished(((seat, "led a card below the highest rank in hand"),))


def test_otboyny_reshuffles_on_the_deck_and_the_claims_still_audit() -> None:
    """отбойный over the deck: the bout's open cards and the face-down stock are re-masked and
    permuted by every party with proofs (a ShuffleOp on those slots); afterwards nobody knows a
    reshuffled slot, draws are shown to their drawer, and the lowest-trump claims are audited
    against the cards as they were before a reshuffle changed their slots."""
    from p2p_durak.engine import events as E
    from p2p_durak.protocol.table import Moved

    machines = _table(3, "otboyny", seed=44)
    _run(machines, seed=44)
    m = machines[0]
    rebounds = [ev for h in m.history if isinstance(h, Moved) for ev in h.events
                if isinstance(ev, E.Rebounded)]
    assert rebounds, "no reshuffle in this game"
    assert any(step.startswith("reshuffle") for step in m.deck.finished_steps)
    assert all(mm.audit == AuditFinished(()) for mm in machines)
@pytest.mark.parametrize(("n", "titles"), [(2, (6, 0)), (4, (2, 6, 0, 1))])
def test_a_titled_game_of_korol_govno_agrees_and_audits_clean(
        n: int, titles: tuple[int, ...]) -> None:
    """Король-говно after the first game: no card is turned, the King names the trump from his
    own (privately dealt) hand, Говно deals and leads; every party agrees and the audit is
    clean."""
    rules = get_preset("app_korol_govno").rules
    game_id = (n + 80).to_bytes(16, "big")
    machines = [TableMachine(game_id, p, n, rules, _rng((n + 80) * 100 + p), titles=titles)
                for p in range(n)]
    _run(machines, seed=n + 80)
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    first = machines[0].state
    assert first is not None
    assert first.game.titles == titles
    assert first.game.dealer == titles.index(6)
    assert first.trump_card < 0



@pytest.mark.parametrize(("n", "seed"), [(2, 91), (3, 92), (5, 93)])
def test_shchelkovsky_over_the_deck_with_proezdnoy_and_self_throw_ins(n: int,
                                                                       seed: int) -> None:
    """щелковский: two decks with jokers; the players here show a проездной whenever they may
    and then throw in to themselves, so the backward transfer and the self throw-in are played
    over the deck (the shown trump is opened by the deck's proof); every machine agrees and
    the claims, tie-break rounds included, audit clean."""
    import random

    machines = _table(n, "shchelkovsky", seed=seed)
    rng = random.Random(seed)
    played: list[eng.Action] = []
    for _ in range(40_000):
        if machines[0].audit is not None:
            break
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            party, payload = rng.choice(due)
            for m in machines:
                m.apply(party, payload)
            continue
        party = rng.choice(machines[0].waiting_for())
        legal = machines[party].legal()
        shows = [a for a in legal if a.kind == eng.Kind.SHOW]
        state = machines[party].state
        assert state is not None
        mine = [a for a in legal if a.kind == eng.Kind.THROW and party == state.defender]
        action = (shows or mine or [rng.choice(legal)])[0]
        played.append(action)
        payload = machines[party].play(action)
        for m in machines:
            m.apply(party, payload)
        assert len({m.state_hash() for m in machines}) == 1
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert any(a.kind == eng.Kind.SHOW for a in played)
    for m in machines:
        assert m.audit == AuditFinished(())


@pytest.mark.parametrize(("n", "seed", "base"), [(2, 95, "podkidnoy"), (3, 96, "podkidnoy"),
                                                  (3, 97, "perevodnoy")])
def test_oborotny_hands_are_seen_by_all_but_their_owner_through_the_deck(
        n: int, seed: int, base: str) -> None:
    """оборотный over the deck: every card dealt or drawn to a seat is a slot shown to every
    other party and never to its own (the deck's tokens, with their proofs); a seat plays by
    position, and the card there is opened by the tokens of a party that sees it. Checked
    after every entry: no party has seen a card of its own hand that was not open to all, and
    every party's engine view holds every other hand and none of its own but the open cards."""
    from .test_table_machine import _deliver

    rules = with_base_rules("oborotny", base)
    machines = [TableMachine(seed.to_bytes(16, "big"), p, n, rules, _rng(seed * 100 + p))
                for p in range(n)]
    rng = __import__("random").Random(seed)
    picks = 0
    blind_checked = False
    while machines[0].audit is None:
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            _deliver(machines, *rng.choice(due))
        else:
            party = rng.choice(machines[0].waiting_for())
            move = rng.choice(machines[party].legal())
            picks += eng.actions.pick_position(move) >= 0
            _deliver(machines, party, machines[party].play(move))
        for m in machines:
            if m.state is None or m.my_seat < 0:
                continue
            mine = m.hand_slots.get(m.my_seat, [])
            assert all(m.deck.slots[s].card is not None for s in mine if s in m.deck.seen)
            if not blind_checked and m.state.phase == eng.Phase.LEAD:
                # his own closed slots do not open with what his party holds
                assert all(m.deck.try_open(s) is None for s in mine
                           if m.deck.slots[s].card is None)
            view = m.state
            for seat in range(n):
                held = view.hands[seat]
                if seat == m.my_seat:
                    public = {m.deck.slots[s].card for s in mine} - {None}
                    assert set(eng.cards_of(held)) <= public
                elif m.deck.pending_op() is None and view.phase in (eng.Phase.LEAD,
                                                                    eng.Phase.BOUT):
                    assert view.hidden[seat] == 0  # (a draw is shown in a deck step)
        blind_checked = blind_checked or (machines[0].state is not None and \
            machines[0].state.phase == eng.Phase.LEAD)
    states = [m.state for m in machines]
    assert all(s is not None and s.result is not None for s in states)
    assert len({eng.state_hash(s) for s in states if s is not None}) == 1
    for m in machines:
        assert m.audit == AuditFinished(())
    misplays = [e for ev in machines[0].history if isinstance(ev, Moved)
                for e in ev.events if isinstance(e, E.Misplayed)]
    assert picks > 10
    assert misplays


def test_oborotny_a_false_claim_names_the_seat_that_made_it() -> None:
    """оборотный: a claimant cannot see his hand, so the seat on his left claims for him; the
    audit names that seat, not the claimant, for a trump that was not the lowest."""
    from dataclasses import replace

    m, cards, check = _audited_cards("oborotny", seed=71)
    game = m.state.game if m.state is not None else None
    assert game is not None
    index, claim = next((i, c) for i, c in enumerate(m.claims)
                        if c.card >= 0 and len([x for x in c.slots
                                                if (game.trump_mask(c.trump) >> cards[x]) & 1])
                        > 1)
    assert claim.by == (claim.seat + 1) % 2
    trumps = [cards[s] for s in claim.slots if (game.trump_mask(claim.trump) >> cards[s]) & 1]
    highest = max(trumps, key=lambda c: (game.rank[c], c))
    m.claims[index] = replace(claim, card=highest)
    assert check(cards) == AuditFinished(((claim.by, "showed a trump that was not the lowest"),))


def test_oborotny_a_pick_is_refused_out_of_turn_or_off_the_hand() -> None:
    """A pick of a play the seat may not make, or of a position beyond its hand, is refused
    with the party named, nothing applied."""
    from p2p_durak.engine import actions as A
    from p2p_durak.protocol import codec
    from p2p_durak.protocol.table import MOVE, TableReject

    machines = _table(2, "oborotny", seed=98)
    import random
    rng = random.Random(98)
    from .test_table_machine import _deliver
    while not (machines[0].state is not None and machines[0].state.phase == eng.Phase.LEAD
               and not machines[0].deck_due()):
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            _deliver(machines, *rng.choice(due))
        else:
            party = rng.choice(machines[0].waiting_for())
            _deliver(machines, party, machines[party].play(rng.choice(machines[party].legal())))
    m = machines[0]
    assert m.state is not None
    attacker = m.state.attacker
    attacker_party, other_party = m.party_of_seat[attacker], m.party_of_seat[1 - attacker]
    lead = A.pick(eng.Action(A.LEAD, attacker), 0)
    assert lead in machines[attacker_party].legal()
    before = m.state_hash()
    throw = codec.encode((MOVE, eng.encode_action(A.pick(eng.Action(A.THROW, attacker), 0)), ()))
    far = codec.encode((MOVE, eng.encode_action(A.pick(eng.Action(A.LEAD, attacker), 6)), ()))
    other = codec.encode((MOVE, eng.encode_action(A.pick(eng.Action(A.LEAD, 1 - attacker),
                                                          0)), ()))
    for party, payload in ((attacker_party, throw), (attacker_party, far), (other_party, other)):
        with pytest.raises(TableReject) as caught:
            m.apply(party, payload)
        assert caught.value.party == party
    assert m.state_hash() == before


# ---- верю не верю: face-down covers and the doubt, by the deck's proofs -----------------------

def _drive_until(machines: list[TableMachine], seed: int,
                 stop: Callable[[list[TableMachine]], bool]) -> None:
    """Play as `_run` does until `stop` holds (checked before every delivery)."""
    import random

    from .test_table_machine import _deliver

    rng = random.Random(seed)
    for _ in range(20000):
        if stop(machines):
            return
        due = [(p, msg) for p, m in enumerate(machines) if (msg := m.owed()) is not None]
        if due:
            _deliver(machines, *rng.choice(due))
            continue
        party = rng.choice(machines[0].waiting_for())
        _deliver(machines, party, machines[party].play(rng.choice(machines[party].legal())))
    raise AssertionError("the game never got there")


def _doubt_due(machines: list[TableMachine]) -> bool:
    """A doubted cover waits for its owner's tokens (a slot nobody else has seen)."""
    m = machines[0]
    return (m.state is not None and m.state.phase == eng.Phase.CHALLENGE
            and m.deck_due() == (m.party_of_seat[m.state.defender],))


def test_a_cover_travels_without_its_card_and_opens_only_when_doubted() -> None:
    """The cover names its slot, not its card: only its author's machine applies the card; the
    others' views show it face down, every state hash agrees, and no other party's deck has
    seen the slot."""
    machines = _table(3, "veryu_ne_veryu", seed=91)
    _drive_until(machines, 91, lambda ms: ms[0].state is not None and any(
        c != eng.UNKNOWN for c in ms[0].state.covers))
    m = machines[0]
    assert m.state is not None
    defender = m.party_of_seat[m.state.defender]
    (slot,) = m.cover_slots.values()
    for party, machine in enumerate(machines):
        assert machine.state is not None
        (cover,) = [c for c in machine.state.covers if c != eng.UNKNOWN]
        if party == defender:
            assert cover >= 0
            assert machine.deck.seen[slot] == cover
        else:
            assert cover == FACE_DOWN
            assert slot not in machine.deck.seen
    # naming the card on the wire, or a slot of another hand, is refused before anything moves
    owner = machines[defender]
    assert owner.state is not None
    legal = eng.legal_actions(owner.state, owner.my_seat)
    cover_action = next((a for a in legal if a.kind == A.COVER), None)
    if cover_action is not None:
        payload = codec.encode((MOVE, eng.encode_action(cover_action), (slot,)))
        with pytest.raises(TableReject, match="no card"):
            owner.fork().apply(defender, payload)
        stranger = next(s for p, h in owner.hand_slots.items() if p != owner.my_seat
                        for s in h)
        wrong = codec.encode((MOVE, eng.encode_action(A.public_form(cover_action)),
                              (stranger,)))
        with pytest.raises(TableReject) as caught:
            owner.fork().apply(defender, wrong)
        assert caught.value.party == defender
        assert caught.value.code == "forged"


def test_a_defender_who_opens_a_doubted_cover_as_another_card_is_named() -> None:
    """A false face-down card is caught by the deck's proofs, never by trust: the defender's
    tokens must open the slot he laid, with a DLEQ proof against his key. Tokens forged to open
    it as another card (one that would beat) are refused at every party, naming him; nothing is
    applied, and his honest tokens then settle the doubt."""
    from p2p_durak.protocol.mental import group
    from p2p_durak.protocol.mental.messages import Tokens
    from p2p_durak.protocol.table import DECK_STEP, deck_message

    machines = _table(2, "veryu_ne_veryu", seed=93)
    _drive_until(machines, 93, _doubt_due)
    m = machines[0]
    assert m.state is not None
    defender = m.party_of_seat[m.state.defender]
    honest_payload = machines[defender].owed()
    assert honest_payload is not None
    honest = deck_message(codec.decode(honest_payload)[1])
    assert isinstance(honest, Tokens)
    (slot,) = honest.slots
    view = m.deck.slots[slot].view_of(defender)
    assert view is not None
    game = m.state.game
    attack = m.state.table[m.state.doubt[1]]
    lie = next(c for c in range(game.n_cards)
               if (game.tables.beaters[m.state.trump + 1][attack] >> c) & 1
               and c != machines[defender].deck.seen[slot])
    # the token that would make the slot open as `lie`: c2 - M(lie) - the others' tokens
    forged_point = group.sub(group.sub(view[1].ct.c2, m.deck.codec.encode(lie)),
                             group.total(view[1].tokens.values()))
    forged = replace(honest, tokens=(forged_point,))
    payload = codec.encode((DECK_STEP, codec.encode(forged.to_wire())))
    _refused_by_the_others(machines, defender, payload, "bad-proof")
    for machine in machines:
        machine.apply(defender, honest_payload)
    opened = [ev for item in m.history if isinstance(item, Moved) for ev in item.events
              if isinstance(ev, E.DoubtSettled)]
    assert opened[-1].card == machines[defender].deck.seen[slot]
    assert opened[-1].card != lie


def _two_covers_doubted(machines: list[TableMachine]) -> bool:
    m = machines[0]
    return (m.state is not None and m.state.phase == eng.Phase.CHALLENGE
            and sum(c != eng.UNKNOWN for c in m.state.covers) >= 2)


def test_the_doubter_is_shown_the_covers_he_took_and_nobody_else() -> None:
    """Face-down cards that go into a hand after a doubt are revealed only to the taker: the
    deck shows the doubter's party each such slot; a bystander's deck never opens it."""
    for seed in range(95, 140):
        machines = _table(3, "veryu_ne_veryu", seed=seed)
        try:
            _drive_until(machines, seed, _two_covers_doubted)
        except AssertionError:
            continue
        m = machines[0]
        assert m.state is not None
        doubter = m.party_of_seat[m.state.doubt[0]]
        defender = m.party_of_seat[m.state.defender]
        others = [slot for i, slot in m.cover_slots.items() if i != m.state.doubt[1]
                  and m.deck.slots[slot].card is None]
        _drive_until(machines, seed, lambda ms: ms[0].state is not None
                     and ms[0].state.phase != eng.Phase.CHALLENGE and not ms[0].deck_due())
        settled = [ev for item in m.history if isinstance(item, Moved) for ev in item.events
                   if isinstance(ev, E.DoubtSettled)][-1]
        if not settled.beats or not others:
            continue
        (bystander,) = set(range(3)) - {doubter, defender}
        for slot in others:
            assert slot in machines[doubter].deck.seen
            assert slot not in machines[bystander].deck.seen
            assert machines[doubter].deck.seen[slot] in eng.cards_of(
                machines[doubter].state.hands[machines[doubter].my_seat])  # type: ignore[union-attr]
        return
    raise AssertionError("no doubt of a true cover with another cover on the table")


# ---- покерный: the exchange's cards go into the stock unopened and are reshuffled -----------

def _exchange_due(machines: list[TableMachine]) -> bool:
    m = machines[0]
    if m.state is None or m.deck.pending_op() is not None or m.state.phase != eng.Phase.BOUT:
        return False
    owner = machines[m.party_of_seat[m.state.defender]]
    assert owner.state is not None
    return any(a.kind == A.EXCHANGE for a in eng.legal_actions(owner.state, owner.my_seat))


def test_an_exchange_names_slots_not_cards_and_the_stock_is_reshuffled_with_proofs() -> None:
    """покерный over the deck: the defender's two slots go into the stock unopened (the others'
    decks never saw them), every party reshuffles the face-down stock with its proof, and the
    game still agrees and audits clean (the claim audit reads the swapped slots as they were).
    Naming the cards on the wire, or a slot of another hand, is refused."""
    machines = _table(2, "pokerny", seed=97)
    _drive_until(machines, 97, _exchange_due)
    m = machines[0]
    assert m.state is not None
    defender = m.party_of_seat[m.state.defender]
    owner = machines[defender]
    assert owner.state is not None
    exchange = next(a for a in eng.legal_actions(owner.state, owner.my_seat)
                    if a.kind == A.EXCHANGE)
    slots = tuple(next(s for s in owner.hand_slots[owner.my_seat]
                       if owner.deck.seen.get(s) == card) for card in exchange.cards)
    named = codec.encode((MOVE, eng.encode_action(exchange), slots))
    with pytest.raises(TableReject, match="no card"):
        owner.fork().apply(defender, named)
    stranger = next(s for p, h in owner.hand_slots.items() if p != owner.my_seat for s in h)
    forged = codec.encode((MOVE, eng.encode_action(A.public_form(exchange)),
                           (slots[0], stranger)))
    with pytest.raises(TableReject) as caught:
        owner.fork().apply(defender, forged)
    assert (caught.value.party, caught.value.code) == (defender, "forged")
    from .test_table_machine import _deliver

    _deliver(machines, defender, owner.play(exchange))
    for party, machine in enumerate(machines):
        assert machine.state is not None
        assert machine.state.phase == eng.Phase.EXCHANGE
        for slot in slots:
            assert slot in machine.stock_slots
            assert (slot in machine.deck.seen) == (party == defender)
    _run(machines, seed=97)
    shuffled = [ev for item in m.history if isinstance(item, Moved) for ev in item.events
                if isinstance(ev, E.StockShuffled)]
    assert shuffled
    for machine in machines:
        assert machine.audit == AuditFinished(())


def test_a_stock_reshuffle_that_swaps_cards_after_proving_is_caught_naming_its_author() -> None:
    """покерный: the given cards are hidden in the stock by every party's re-mask and
    permutation, each proven; a party that changes its shuffled deck after proving (here: two
    ciphertexts swapped) is named at every other party — refused at once when its shuffle
    completes the step, else undone with the shuffles made on it when the step's proofs are
    checked together (`TableMachine.undone`) — and its honest shuffle then goes through."""
    from p2p_durak.protocol.mental.messages import Shuffle
    from p2p_durak.protocol.table import DECK_STEP, deck_message

    def swap_shuffle_due(ms: list[TableMachine]) -> bool:
        p = ms[0].deck.pending_op()
        return p is not None and p.op.step.startswith("swap-shuffle")

    machines = _table(2, "pokerny", seed=97)
    _drive_until(machines, 97, swap_shuffle_due)
    (party,) = machines[0].deck_due()
    payload = machines[party].owed()
    assert payload is not None
    honest = deck_message(codec.decode(payload)[1])
    assert isinstance(honest, Shuffle)
    deck = honest.deck
    tampered = replace(honest, deck=(deck[1], deck[0], *deck[2:]))
    bad = codec.encode((DECK_STEP, codec.encode(tampered.to_wire())))
    hashes = {m.state_hash() for m in machines}
    refused: list[TableReject] = []
    for machine in machines:
        try:
            machine.apply(party, bad)
        except TableReject as error:  # the last shuffle of the step: refused, nothing applied
            refused.append(error)
    if refused:
        assert len(refused) == len(machines)
        assert {(e.party, e.code) for e in refused} == {(party, "bad-proof")}
        assert {m.state_hash() for m in machines} == hashes
        return
    # not the last shuffle: taken for now; the next party's shuffle completes the step, the
    # folded check finds the false one and undoes it, naming its author on every node
    _drive_until(machines, 97, lambda ms: all(m.undone for m in ms))
    for machine in machines:
        assert [seat for seat, _step, _reason in machine.undone] == [party]
    _run(machines, seed=97)  # it shuffles again, honestly, and the game goes on to its audit
    for machine in machines:
        assert machine.audit == AuditFinished(())
