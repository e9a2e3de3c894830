"""majiang.botzone: the Botzone Chinese-Standard-Mahjong protocol both ways.

Expected tables are derived by hand from the request lines (docs/botzone.md); legality
by hand from the rules (a chow only from the player before, a pung needs two copies…).
"""
import io
import json
import sys
import textwrap

import numpy as np
import pytest

from majiang import Position
from majiang.botzone import (KEEP_RUNNING, BotzoneTable, ExternalPlayer, RequestWriter,
                             choose_response, main, parse_input)
from majiang.botzone import make_player, player_names, player_response
from majiang.errors import InvalidHandError, InvalidNotationError, RuleError
from majiang.game import play_hand
from majiang.game.engine import IllegalMoveError
from majiang.hand import Meld
from majiang.records.codes import botzone_code, botzone_tile
from majiang.records.datatypes import Discard

DEAL = "1 1 0 2 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 J1 H3 H1 H8"


def table(*requests, responses=()):
    return BotzoneTable.from_history(list(requests), list(responses))


# ---------------------------------------------------------------- the parser
def test_deal_and_own_draw():
    t = table("0 1 2", DEAL, "3 0 DRAW", "3 0 PLAY W9", "2 T5")
    expected = Position(concealed="123m456p5789s1177z",
                        ruleset="mcr", seat=1, drawn="5s", dealer=0, prevalent_wind=2,
                        discards=[[Discard(8, None)], [], [], []], flowers=[1, 0, 2, 0])
    assert t.position() == expected
    assert t.last == ("draw", 1)
    assert t.flowers == [1, 0, 2, 0]


def test_pung_by_me_marks_the_discard_and_plays():
    t = table("0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY J1", "3 1 PENG T9")
    # 123m 456p 789s 11z 77z + pung 777z from seat 0, T9 played: 123m456p78s11z
    expected = Position(concealed="123m456p78s11z", ruleset="mcr", seat=1, dealer=0,
                        melds=[[], [(Meld("pung", 33), 0)], [], []],
                        discards=[[Discard(33, 1)], [Discard(26, None)], [], []],
                        flowers=[1, 0, 2, 0])
    assert t.position() == expected
    assert t.last == ("discard", 1, 26)


def test_chow_by_another_player_and_my_claim_options():
    t = table("0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY W5", "2 W4", "3 1 PLAY T7",
              "3 2 CHI T8 B1")
    # seat 2 chowed T7 (mine) into 789s, then played 1p
    pos = t.position()
    assert pos.melds[2][0].meld == Meld("chow", 24) and pos.melds[2][0].from_seat == 1
    assert pos.discards[1] == (Discard(24, 2),)
    assert pos.discards[2] == (Discard(9, None),)
    # seat 1 may not chow from seat 2 (not the player before); a pung needs two copies
    assert t.check_response("CHI B2 W1") is not None
    assert t.check_response("PENG W1") is not None
    assert t.check_response("PASS") is None


def test_concealed_kongs_own_and_hidden():
    deal = "1 0 0 0 0 W1 W1 W1 B4 B5 B6 T7 T8 T9 F1 F1 J1 J1"
    t = table("0 0 0", deal, "2 W1", "3 0 GANG", "2 T1",
              responses=["PASS", "PASS", "GANG W1", "PASS"])
    pos = t.position()
    assert pos.melds[0][0].meld == Meld("kong", 0, True)
    assert int(pos.concealed.sum()) == 11 and pos.drawn == 18
    assert t.after_kong
    t2 = table("0 0 0", deal, "2 W2", "3 0 PLAY W2", "3 1 DRAW", "3 1 GANG", "3 1 DRAW",
               "3 1 PLAY B9")
    assert t2.hidden_kongs == [0, 1, 0, 0]
    assert t2.position().hidden_kongs == (0, 1, 0, 0)


def test_added_kong_may_be_robbed_only_with_a_win():
    deal = "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 T5"
    t = table("0 1 0", deal, "3 0 DRAW", "3 0 PLAY J2", "3 2 PENG B1", "3 3 DRAW",
              "3 3 PLAY B2", "3 0 DRAW", "3 0 PLAY B3", "2 W9", "3 1 PLAY W9")
    assert t.melds[2] == [["pung", 32, False, 0]]
    assert t.discards[0][0] == [32, 2]
    t.apply("3 2 DRAW")
    t.apply("3 2 BUGANG J2")
    assert t.last == ("bugang", 2, 32)
    assert t.check_response("HU") is not None        # J2 completes nothing here
    assert t.check_response("PASS") is None
    assert t.melds[2] == [["kong", 32, False, 0]]


def test_parser_refuses_bad_requests():
    with pytest.raises(InvalidNotationError, match="request 1"):
        table("1 0 0 0 0")
    with pytest.raises(InvalidNotationError, match="bad Botzone tile code"):
        table("0 1 0", "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 F1 F1 J1 X9")
    with pytest.raises(InvalidHandError, match="holds 0 W9"):
        table("0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY W5", "2 W4", "3 1 PLAY W9")
    with pytest.raises(InvalidHandError, match="no discard"):
        table("0 1 0", DEAL, "3 0 DRAW", "3 2 PENG W1")
    with pytest.raises(InvalidNotationError, match="needs 5 lines"):
        parse_input(["3", "0 1 0", "PASS"])
    assert parse_input(["2", "0 1 0", "PASS", "1 ...", "data"]) == (["0 1 0", "1 ..."],
                                                                     ["PASS"])


# ---------------------------------------------------------------- legality and answers
def test_hu_needs_eight_fan():
    # 123m 456p 789s (花龙, 8 fan) 111z 77z: HU on a discard 1z or 7z is legal
    t = table("0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY F1")
    assert t.check_response("HU") is None
    assert choose_response(t, "efficiency") == "HU"
    # 234m 345p 88p 567s 22s + 8p: 断幺 2 + 门前清 2 (+ 1-fan extras), under 8
    deal = "1 0 0 0 0 W2 W3 W4 B3 B4 B5 B8 B8 T5 T6 T7 T2 T2"
    t2 = table("0 1 0", deal, "3 0 DRAW", "3 0 PLAY B8")
    assert t2.check_response("HU") is not None
    assert choose_response(t2, "efficiency") != "HU"


def test_own_turn_answers_are_legal():
    t = table("0 1 0", DEAL, "3 0 DRAW", "3 0 PLAY W9", "2 T5")
    assert t.check_response("PASS") is not None     # the seat must play
    assert t.check_response("PLAY B1") is not None
    assert t.check_response("GANG F1") is not None
    for by in ("efficiency", "ev"):
        a = choose_response(t, by)
        assert a.startswith("PLAY ") and t.check_response(a) is None


def test_call_rule_only_to_a_ready_hand_with_eight_fan():
    # 123m 456p 7899s 11z 5z + pung of 9s: drop 5z -> 123m 456p 78s 11z [999s], waiting
    # on 6s or 9s; 9s makes 123m 456p 789s (花龙, 8 fan): PENG, playing 5z (J3)
    deal = "1 0 0 0 0 W1 W2 W3 B4 B5 B6 T7 T8 T9 T9 F1 F1 J3"
    t = table("0 1 0", deal, "3 0 DRAW", "3 0 PLAY T9")
    assert choose_response(t, "efficiency") == "PENG J3"
    # 234m 234p 5677s 22s 8p + pung of 2s: drop 8p -> ready on 4s / 7s, neither an
    # 8-fan win (断幺 2, 喜相逢 1, 单钓 1 ...): PASS although the pung is legal
    deal2 = "1 0 0 0 0 W2 W3 W4 B2 B3 B4 T5 T6 T7 T7 T2 T2 B8"
    t2 = table("0 1 0", deal2, "3 0 DRAW", "3 0 PLAY T2")
    assert t2.check_response("PENG B8") is None
    assert choose_response(t2, "efficiency") == "PASS"
    # a chow from the player after (id 2) is refused, from the player before (id 0) not
    t3 = table("0 1 0", deal2, "3 0 DRAW", "3 0 PLAY T8")
    assert t3.check_response("CHI T7 B8") is None
    t4 = table("0 1 0", deal2, "3 0 DRAW", "3 0 PLAY W9", "2 W9", "3 1 PLAY W9",
               "3 2 DRAW", "3 2 PLAY T8")
    assert t4.check_response("CHI T7 B8") == "CHI of a discard not from the player before"


# ---------------------------------------------------------------- many random histories
@pytest.mark.parametrize("ruleset", ["mcr", "mcr_botzone"])
@pytest.mark.parametrize("hand", [0] + [pytest.param(h, marks=pytest.mark.slow)
                                        for h in range(1, 12)])
def test_answers_always_legal_on_random_histories(hand, ruleset):
    """Random players' hands, seen from every seat: the table follows the engine (its
    final concealed tiles, its per-seat walls) and every answer of the bot is legal."""
    st = play_hand(ruleset, ["random"] * 4, seed=100 + hand, hand=hand, log=True)
    for seat in range(4):
        w = RequestWriter(seat, st.dealer)
        t = BotzoneTable(ruleset)
        t.apply(f"0 {(seat - st.dealer) % 4} {st.prevalent}")
        n = 0
        for e in st.events:
            if e.get("e") == "kong" and e["seat"] == seat and e["kind"] == "concealed":
                t.respond(f"GANG {botzone_code(e['tile'])}")
            for r in w.feed([e]):
                t.apply(r)
                a = choose_response(t, "efficiency")
                assert t.check_response(a) is None, (r, a, t)
                t.respond(a)
                n += 1
        assert n > 10
        if seat not in [x["seat"] for x in st.wins]:
            assert np.array_equal(t.hand, st.seats[seat].phys.astype(np.int64))
        assert len(t.melds[(seat - st.dealer) % 4]) == len(st.seats[seat].melds)
        t.position()          # a valid Position at the end


# ---------------------------------------------------------------- the program
def test_main_single_turn_and_keep_running():
    history = "3\n0 1 0\nPASS\n" + DEAL + "\nPASS\n3 0 PLAY F1\n"
    out = io.StringIO()
    assert main(["--once", "--by", "efficiency"], stdin=io.StringIO(history), stdout=out) == 0
    assert out.getvalue() == "HU\n"
    out = io.StringIO()
    kept = "2\n0 1 0\nPASS\n" + DEAL + "\n3 0 DRAW\n3 0 PLAY W9\n2 T5\n"
    assert main(["--by", "efficiency"], stdin=io.StringIO(kept), stdout=out) == 0
    lines = out.getvalue().split("\n")
    assert lines[0::2][:3] == ["PASS", "PASS", "PASS"] and lines[6].startswith("PLAY ")
    assert lines[1::2][:4] == [KEEP_RUNNING] * 4


@pytest.mark.parametrize("reqs,why", [
    # the seat holds 2 中; player 2 pungs a third and fourth: a fifth 中 is thrown
    (["0 1 0", DEAL, "3 0 PLAY J1", "3 2 PENG W9", "3 3 DRAW", "3 3 PLAY J1"],
     "5 copies of J1"),
    (["0 1 0", DEAL] + ["3 0 PLAY W5"] * 5, "5 copies of W5"),
    # player 2 may chow only player 1's discard
    (["0 1 0", DEAL, "3 0 PLAY W5", "3 2 CHI W4 W2"], "only the discard of player 1"),
    (["0 1 0", "1 0 1 0 0 W1 W4 W7 B2 B5 B8 T3 T6 T9 F1 F2 J1 J1 H9"], "bad flower code"),
    (["0 1 0", DEAL, "3 0 BUHUA W5"], "bad flower code"),
    # the seat's own discard with no draw before it: it holds 13 tiles
    (["0 1 0", DEAL, "3 1 PLAY W1"], "holds 13 tiles"),
])
def test_impossible_tables_are_refused(reqs, why):
    with pytest.raises((InvalidHandError, InvalidNotationError), match=why) as ei:
        BotzoneTable.from_history(reqs, ["PASS"] * (len(reqs) - 1))
    assert "\n" not in str(ei.value)


def test_main_json_interaction():
    """The same inputs as the simple interaction above, in Botzone's JSON interaction:
    one line {"requests": [...], "responses": [...]}, answered {"response": "..."};
    kept running, each further request a JSON string."""
    reqs = ["0 1 0", DEAL, "3 0 PLAY F1"]
    line = json.dumps({"requests": reqs, "responses": ["PASS", "PASS"], "data": "",
                       "globaldata": "", "time_limit": 6, "memory_limit": 256})
    out = io.StringIO()
    assert main(["--once", "--by", "efficiency"], stdin=io.StringIO(line + "\n"),
                stdout=out) == 0
    assert json.loads(out.getvalue()) == {"response": "HU"}
    kept = (json.dumps({"requests": ["0 1 0", DEAL], "responses": ["PASS"]}) + "\n"
            + "\n".join(json.dumps(r) for r in ["3 0 DRAW", "3 0 PLAY W9", "2 T5"]) + "\n")
    out = io.StringIO()
    assert main(["--by", "efficiency"], stdin=io.StringIO(kept), stdout=out) == 0
    lines = out.getvalue().split("\n")
    answers = [json.loads(x)["response"] for x in lines[0::2][:4]]
    assert answers[:3] == ["PASS", "PASS", "PASS"] and answers[3].startswith("PLAY ")
    assert lines[1::2][:4] == [KEEP_RUNNING] * 4


@pytest.mark.parametrize("line,why", [
    ("{not json", "not JSON"),
    ('["0 1 0"]', "expected an object"),
    ('{"requests": ["0 1 0", "1 0 0 0 0"], "responses": []}', "2 requests need 1"),
    ('{"requests": [], "responses": []}', "non-empty list of strings"),
])
def test_main_json_input_errors_are_one_line(line, why, capsys):
    assert main(["--once"], stdin=io.StringIO(line + "\n"), stdout=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert why in err and err.count("\n") == 1


def test_external_json_program_must_answer_json(tmp_path):
    p = tmp_path / "plain.py"
    p.write_text("import sys\nsys.stdin.readline()\nprint('PASS')\n")
    ext = ExternalPlayer([sys.executable, str(p)], time_limit=20, protocol="json")
    with pytest.raises(IllegalMoveError, match=r'not a JSON answer'):
        play_hand("mcr", [ext, "efficiency", "efficiency", "efficiency"], seed=1)
    with pytest.raises(RuleError, match="protocol"):
        ExternalPlayer("x", protocol="xml")


PROGRAM = textwrap.dedent("""
    import sys, time
    mode = sys.argv[1]
    n = int(sys.stdin.readline())
    lines = [sys.stdin.readline().strip() for _ in range(2 * n - 1)]
    req = lines[-1].split()
    if mode == "slow":
        time.sleep(5)
    if req[0] == "2":
        print("PLAY W1" if mode == "illegal" else "PLAY " + req[1])
    else:
        print("PASS")
""")


@pytest.fixture
def program(tmp_path):
    p = tmp_path / "tsumogiri.py"
    p.write_text(PROGRAM)
    return lambda mode: ExternalPlayer([sys.executable, str(p), mode], time_limit=20,
                                       name=f"test program {mode}")


def test_single_turn_program_plays_a_full_hand(program):
    """A program written here (one answer per run: restarted with the whole history,
    plays what it draws) holds seat 2 through a whole hand."""
    ext = program("ok")
    st = play_hand("mcr", ["efficiency", "efficiency", ext, "efficiency"], seed=3)
    ext.close()
    assert st.end_reason in ("win", "wall") and sum(st.deltas) == 0
    assert any(r.startswith("2 ") for r in ext.requests)
    assert all(r == "PASS" or r.startswith("PLAY ") for r in ext.responses)


def test_illegal_move_and_timeout_are_one_line_errors(program):
    with pytest.raises(IllegalMoveError) as ei:
        play_hand("mcr", [program("illegal"), "efficiency", "efficiency", "efficiency"],
                  seed=1)
    msg = str(ei.value)
    assert "\n" not in msg and "seat 0" in msg and "PLAY W1" in msg
    slow = program("slow")
    slow.startup_limit = 0.5
    with pytest.raises(IllegalMoveError, match=r"no answer within 0.5 s"):
        play_hand("mcr", ["efficiency", slow, "efficiency", "efficiency"], seed=1)


def _our_program(ruleset):
    return ExternalPlayer([sys.executable, "-m", "majiang.botzone", "--by", "efficiency",
                           "--ruleset", ruleset], time_limit=60, name="majiang.botzone")


def _match(n_ext, hands, seed, ruleset="mcr_botzone"):
    for h in range(hands):
        ext = [_our_program(ruleset) for _ in range(n_ext)]
        try:
            st = play_hand(ruleset, ext + ["efficiency"] * (4 - n_ext), seed=seed, hand=h)
        finally:
            for e in ext:
                e.close()
        assert st.end_reason in ("win", "wall")
        assert sum(st.deltas) == 0
        assert all(len(e.requests) > 20 for e in ext)


@pytest.mark.parametrize("ruleset", ["mcr_botzone", "mcr"])
def test_our_program_plays_through_the_protocol(ruleset):
    _match(1, 1, seed=0, ruleset=ruleset)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["mcr_botzone", "mcr"])
@pytest.mark.parametrize("n_ext", [2, 4])
def test_our_program_match_more_seats(n_ext, ruleset):
    _match(n_ext, 3, seed=1, ruleset=ruleset)


def _to_wall_end(ruleset, last):
    """id 1 holds 234m 345p 88p 567s 22s (4 fan on 8p); every seat makes 21 draws (one
    wall of 34 each under mcr_botzone), then id 3 discards ``last``."""
    hand = "W2 W3 W4 B3 B4 B5 B8 B8 T5 T6 T7 T2 T2".split()
    t = table("0 1 0", "1 0 0 0 0 " + " ".join(hand))
    t.ruleset = ruleset
    # every discard a different copy (no fifth copy on the table): the tiles not in the
    # hand, 8p and 2s kept back for the last discard
    codes = [f"{s}{n}" for s in "WBT" for n in range(1, 10)] + \
        [f"F{n}" for n in range(1, 5)] + [f"J{n}" for n in range(1, 4)]
    pool = [c for c in codes if c not in ("B8", "T2") for _ in range(4 - hand.count(c))]
    pool.reverse()
    for r in range(21):
        for p in range(4):
            if p == 1:
                x = pool.pop()
                t.apply(f"2 {x}")
                t.apply(f"3 1 PLAY {x}")
            else:
                t.apply(f"3 {p} DRAW")
                if not (p == 3 and r == 20):
                    t.apply(f"3 {p} PLAY {pool.pop()}")
    t.apply(f"3 3 PLAY {last}")
    return t


def test_wall_end_under_mcr_botzone():
    """Hand-derived: after 21 draws each, id 3's discard is the last (id 0, next, has an
    empty wall): 海底捞月 (8 fan) lifts the 4-fan hand to a win; no call on it."""
    t = _to_wall_end("mcr_botzone", "B8")
    assert t.draws == [21, 21, 21, 21] and t.wall_empty(0)
    assert t.check_response("HU") is None
    assert "last discard" in t.check_response("PENG W2")
    t2 = _to_wall_end("mcr", "B8")          # one wall: its end is not shown
    assert not t2.wall_empty(0) and t2.check_response("HU") is not None
    t3 = _to_wall_end("mcr_botzone", "T2")  # a pung of the last discard is refused,
    assert "last discard" in t3.check_response("PENG W2")
    assert choose_response(t3, "efficiency") == "HU"   # but 22s 88p also waits on 2s


# ---------------------------------------------------------------- --player NAME
def test_player_option_unknown_name_is_a_one_line_error(capsys):
    out = io.StringIO()
    assert main(["--once", "--player", "nobody"], stdin=io.StringIO("1\n0 1 0\n"),
                stdout=out) == 2
    err = capsys.readouterr().err.strip()
    assert out.getvalue() == "" and "\n" not in err
    assert err == "majiang.botzone: unknown player 'nobody'; built-in players: " + \
        ", ".join(player_names())
    assert {"random", "efficiency"} <= set(player_names())


@pytest.mark.parametrize("name", ["efficiency", "random"])
def test_player_option_wins_and_answers(name):
    """Both built-in players win whenever they may (majiang.game.players): id 1 holds
    123m 456p 789s EE + red red and wins on id 0's E (花龙 alone is 8 fan); after a draw
    they play a held tile."""
    history = "3\n0 1 0\nPASS\n" + DEAL + "\nPASS\n3 0 PLAY F1\n"
    out = io.StringIO()
    assert main(["--once", "--player", name], stdin=io.StringIO(history), stdout=out) == 0
    assert out.getvalue() == "HU\n"
    out = io.StringIO()
    kept = "2\n0 1 0\nPASS\n" + DEAL + "\n3 0 DRAW\n3 0 PLAY W9\n2 T5\n"
    assert main(["--player", name], stdin=io.StringIO(kept), stdout=out) == 0
    lines = out.getvalue().split("\n")
    assert lines[0::2][:3] == ["PASS", "PASS", "PASS"] and lines[6].startswith("PLAY ")
    held = {botzone_tile(c) for c in DEAL.split()[5:18]} | {botzone_tile("T5")}
    assert botzone_tile(lines[6].split()[1]) in held


@pytest.mark.parametrize("ruleset", ["mcr", "mcr_botzone"])
@pytest.mark.parametrize("name", ["efficiency", "random"])
def test_builtin_players_answer_legally_on_random_histories(name, ruleset):
    """Random players' hand seen from every seat: every answer of the built-in player
    (before the final legality check) is a legal response."""
    st = play_hand(ruleset, ["random"] * 4, seed=7, log=True)
    n = 0
    for seat in range(4):
        w = RequestWriter(seat, st.dealer)
        t = BotzoneTable(ruleset)
        t.apply(f"0 {(seat - st.dealer) % 4} {st.prevalent}")
        for e in st.events:
            if e.get("e") == "kong" and e["seat"] == seat and e["kind"] == "concealed":
                t.respond(f"GANG {botzone_code(e['tile'])}")
            for r in w.feed([e]):
                t.apply(r)
                a = player_response(t, make_player(name, t.n))
                assert t.check_response(a) is None, (r, a, t)
                t.respond(a)
                n += a != "PASS"
    assert n > 20


@pytest.mark.parametrize("ruleset,protocol", [("mcr_botzone", "simple"), ("mcr", "simple"),
                                              ("mcr_botzone", "json")])
def test_efficiency_player_through_the_protocol_plays_as_the_engine(ruleset, protocol):
    """``--player efficiency`` as seat 1 through the protocol makes the moves the
    engine's own efficiency bot makes there: the same discards, calls, kongs and win,
    the same settlement.  With ``protocol="json"`` both ends speak Botzone's JSON
    interaction (the program reads whichever format it is sent)."""
    ext = ExternalPlayer([sys.executable, "-m", "majiang.botzone", "--player", "efficiency",
                          "--ruleset", ruleset], time_limit=60, name="majiang.botzone",
                         protocol=protocol)
    try:
        st = play_hand(ruleset, ["efficiency", ext, "efficiency", "efficiency"], seed=2,
                       log=True)
    finally:
        ext.close()
    ref = play_hand(ruleset, "efficiency", seed=2, log=True, engine="python")

    def moves(s):
        return [(e["e"], e.get("seat"), e.get("tile"), e.get("kind")) for e in s.events
                if e["e"] in ("discard", "call", "kong", "win")]
    assert moves(st) == moves(ref) and len(moves(st)) > 20
    assert list(st.deltas) == list(ref.deltas)
    assert len(ext.requests) > 50


def test_a_program_that_cannot_start_is_a_one_line_error(tmp_path):
    # a missing program: the engine's IllegalMoveError naming it, not FileNotFoundError
    ext = ExternalPlayer([str(tmp_path / "no_such_bot")], time_limit=5)
    with pytest.raises(IllegalMoveError, match="could not be started"):
        play_hand("mcr_botzone", [ext, "efficiency", "efficiency", "efficiency"], seed=1)
