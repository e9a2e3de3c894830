"""majiang.env: the PettingZoo AEC environment over the engine.

Expected values come from outside the environment: PettingZoo's own API and seed tests,
the engine's own loop with the built-in bots (the same hand played by ``play_hand`` must
settle the same), the engine's log replay, the deal sizes and chow shapes of the rules.
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from majiang.env import (CHOW, DISCARD, KONG, N_ACTIONS, OPEN_KONG, PASS, PUNG, READY, VOID,  # noqa: E402
                         WIN, action_name, env, raw_env)
from majiang.game import play_hand  # noqa: E402
from majiang.game.engine import IllegalMoveError  # noqa: E402
from majiang.game.logs import replay  # noqa: E402
from majiang.game.players import EfficiencyPlayer  # noqa: E402
from majiang.rules.catalog import variants  # noqa: E402
from _engine_helpers import live_decisions  # noqa: E402

COMPLETE = sorted({v.ruleset for v in variants() if v.ruleset})     # every playable variant


def _play(e, choose, seed=0, hand=None):
    """Play one hand of ``e`` to the end, ``choose(obs) -> action``; returns the
    rewards each agent saw from ``last()`` at its termination."""
    e.reset(seed=seed, options=None if hand is None else {"hand": hand})
    final = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            final[agent] = reward
            e.step(None)
            continue
        e.step(choose(agent, obs))
    return final


def _random(seed):
    rng = np.random.default_rng(seed)
    return lambda agent, obs: int(rng.choice(np.flatnonzero(obs["action_mask"])))


@pytest.mark.filterwarnings("ignore:Observation")    # a dict observation, as PettingZoo's
@pytest.mark.parametrize("ruleset", ["mcr", "sichuan", "guangdong", "kawuxing", "nanchang",
                                     "sichuan_xueliu", "shandong",     # own card games
                                     "baoding"])
def test_pettingzoo_api_and_seed_tests(ruleset):
    api_test(env(ruleset), num_cycles=400)
    seed_test(lambda: env(ruleset), num_cycles=200)


@pytest.mark.parametrize("ruleset", COMPLETE)
def test_efficiency_decisions_through_the_env_settle_as_the_engine(ruleset):
    """Every seat answered by the built-in efficiency bot through ``policy_action``: the
    hand and its settlement are those of ``play_hand(ruleset, "efficiency")`` on the same
    seed (the engine's own loop asking the bot directly); the rewards are its score
    changes and sum to 0 (every built-in ruleset pays player to player); the two logs
    are the same event for event (报听 asks and declarations included)."""
    e = env(ruleset)
    bot = EfficiencyPlayer()
    final = _play(e, lambda agent, obs: e.unwrapped.policy_action(bot), seed=3)
    ref = play_hand(ruleset, "efficiency", seed=3, engine="python", log=True)
    assert [final[f"player_{p}"] for p in range(len(ref.deltas))] == list(ref.deltas)
    assert sum(ref.deltas) == 0
    assert e.unwrapped.hand_state.end_reason == ref.end_reason
    assert e.unwrapped.hand_state.events[1:] == ref.events[1:]    # the header names the bots


def test_the_efficiency_bot_declares_through_the_env_where_the_engine_has_it_declare():
    """Hand 0 of seed 3 under 保定 (a declaration is required to win): the engine's own
    loop has the efficiency bot declare twice; through the env both are ready decisions
    answered 112 (concealed), and each declaring seat's reward is its score change."""
    e = env("baoding")
    u = e.unwrapped
    bot = EfficiencyPlayer()
    asked = []
    e.reset(seed=3)
    for agent, obs in live_decisions(e):
        a = u.policy_action(bot)
        if obs["observation"][13, 0] == 6:
            asked.append((agent, a))
        e.step(a)
    assert asked == [("player_2", READY), ("player_0", READY)]
    assert [s.declared for s in u.hand_state.seats] == ["concealed", "", "concealed", ""]


@pytest.mark.parametrize("ruleset", COMPLETE)
def test_random_legal_rollout_conserves_score_and_replays(ruleset):
    """Uniformly random legal actions to the end of the hand: every agent terminated,
    rewards summing to 0, and the engine's replay of the hand's log settles the same."""
    e = env(ruleset)
    final = _play(e, _random(1), seed=5)
    st = e.unwrapped.hand_state
    assert st.ended and set(final) == set(e.unwrapped.possible_agents) and not e.agents
    assert sum(final.values()) == 0
    assert [final[f"player_{p}"] for p in range(st.n)] == list(st.deltas)
    assert list(replay(st.events).deltas) == list(st.deltas)


def test_a_win_pays_through_the_rewards():
    """A hand with a win (mcr, efficiency bots, seed 3): the winner's reward is positive
    and the rest pay it (Chinese Official: at least 8 from the discarder or 8 + the fans
    from each on a self-draw)."""
    e = env("mcr")
    bot = EfficiencyPlayer()
    final = _play(e, lambda agent, obs: e.unwrapped.policy_action(bot), seed=3)
    st = e.unwrapped.hand_state
    assert st.end_reason == "win"
    w = st.wins[0]["seat"]
    assert final[f"player_{w}"] >= 8 * 3 and sum(final.values()) == 0


def test_illegal_action_raises_and_leaves_the_env_as_it_was():
    e = env("mcr")
    e.reset(seed=0)
    agent = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match=rf"{agent}: action {illegal} .* not legal now; "
                                               r"legal: \d+ \(discard"):
        e.step(illegal)
    for bad in (None, N_ACTIONS, -1, 1.5):
        with pytest.raises(IllegalMoveError, match="not legal now"):
            e.step(bad)
    assert e.agent_selection == agent
    after, *_ = e.last()
    assert np.array_equal(after["observation"], obs["observation"])
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))       # a legal one still plays
    assert e.agent_selection != agent or e.unwrapped.hand_state.seats[0].discards


def test_seeding_gives_reproducible_hands():
    def run(seed):
        e = env("guangdong")
        e.reset(seed=seed)
        rng = np.random.default_rng(9)
        seen = []
        for agent in e.agent_iter(60):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                break
            seen.append((agent, obs["observation"].copy()))
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return seen
    a, b, c = run(4), run(4), run(5)
    assert len(a) == len(b) and all(x[0] == y[0] and np.array_equal(x[1], y[1])
                                    for x, y in zip(a, b))
    assert not all(np.array_equal(x[1], y[1]) for x, y in zip(a, c))
    # the same deal as the engine's own hand 0 of seed 4: the dealer holds its 14 tiles
    ref = play_hand("guangdong", "efficiency", seed=4, deal_only=True)
    assert np.array_equal(a[0][1][0], ref.start_hands[ref.dealer])


def test_reset_without_seed_plays_the_next_hand_and_the_dealer_rotates():
    e = env("guangdong")
    dealers = []
    e.reset(seed=1)
    for _ in range(3):
        obs = e.observe("player_0")["observation"]
        dealers.append(int(obs[13, 4]))            # relative seat of the dealer
        e.reset()
    assert dealers == [0, 1, 2]                    # seats 0, 1, 2 seen from seat 0
    e.reset(seed=1, options={"hand": 2})
    assert int(e.observe("player_1")["observation"][13, 4]) == 1


def test_observation_rows_at_the_deal():
    """The deal: 13 tiles a seat, the dealer 14 with its drawn tile marked; the dealer's
    discard shows in the next seat's row of the previous seat's pool."""
    e = env("guangdong")        # 136 tiles, no flowers
    e.reset(seed=2)
    u = e.unwrapped
    dealer = u.agent_selection
    d = u.agent_name_mapping[dealer]
    obs = u.observe(dealer)["observation"]
    assert obs[0].sum() == 14 and obs[1].sum() == 1 and obs[0][obs[1] == 1] >= 1
    assert obs[13, 0] == 2 and obs[13, 4] == 0 and obs[13, 6] == 4 and obs[13, 2] == 0
    assert obs[13, 5] == 136 - 53 > 127 - 60       # capped at 127 only above it
    for q in range(4):
        if q != d:
            o = u.observe(f"player_{q}")
            assert o["observation"][0].sum() == 13 and o["observation"][1].sum() == 0
            assert not o["action_mask"].any()
    k = int(np.flatnonzero(u.observe(dealer)["action_mask"])[0])
    e.step(k)
    nxt = u.observe(f"player_{(d + 1) % 4}")["observation"]
    assert nxt[9, k] == 1 and nxt[6:9].sum() == 0


def test_observation_of_a_claim():
    """A claim decision: the offered tile is one-hot in row 10, offered by the relative
    seat in row 13 [1], whose pool row holds it; pass is always legal."""
    e = _find("guangdong", [PASS])
    u = e.unwrapped
    o = u.observe(u.agent_selection)
    obs = o["observation"]
    assert obs[13, 0] == 4 and o["action_mask"][PASS] == 1 and obs[10].sum() == 1
    t = int(np.flatnonzero(obs[10])[0])
    r = int(obs[13, 1])
    assert r != 0 and obs[6 + r, t] >= 1
    q = (u.agent_name_mapping[u.agent_selection] + r) % 4
    assert u.hand_state.last_discard == (q, t)


def _find(ruleset, want, seeds=range(40), bot=False):
    """Rollouts (random legal actions, or the efficiency bot's) until a decision whose
    mask allows one of ``want``; returns the env there (or None)."""
    for s in seeds:
        e = env(ruleset)
        e.reset(seed=s)
        rng = np.random.default_rng(s)
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                break
            if obs["action_mask"][list(want)].any():
                return e
            if bot:
                e.step(e.unwrapped.policy_action(EfficiencyPlayer()))
                continue
            legal = [a for a in np.flatnonzero(obs["action_mask"]) if a not in want]
            e.step(int(rng.choice(legal)))
    return None


@pytest.mark.parametrize("variant", [0, 1, 2])
def test_chow_ids_name_the_discards_place_in_the_chow(variant):
    """Action 34 + i chows with the discard d as tile i (0 lowest) of the run: the meld
    row then holds d - i, d - i + 1, d - i + 2 once each."""
    e = _find("mcr", [CHOW + variant])
    assert e is not None
    u = e.unwrapped
    agent = u.agent_selection
    obs = u.observe(agent)["observation"]
    d = int(np.flatnonzero(obs[10])[0])
    before = obs[2].copy()
    e.step(CHOW + variant)
    got = u.observe(agent)["observation"][2] - before
    want = np.zeros(34, dtype=np.int8)
    want[d - variant:d - variant + 3] = 1
    assert np.array_equal(got, want)
    assert u.agent_selection == agent           # a discard after the call
    assert int(u.observe(agent)["observation"][13, 0]) == 3


def test_void_suit_decision_under_sichuan():
    """定缺 first: each seat names its void suit (actions 109-111 only); then the own
    discards are of that suit while it holds any."""
    e = env("sichuan")
    e.reset(seed=0)
    u = e.unwrapped
    for _ in range(4):
        obs = u.observe(u.agent_selection)
        assert np.flatnonzero(obs["action_mask"]).tolist() == [VOID, VOID + 1, VOID + 2]
        assert obs["observation"][13, 0] == 1
        e.step(VOID + 2)                                   # void in 条 (kinds 18-26)
    obs = u.observe(u.agent_selection)
    assert all(obs["observation"][13, 16:20] == 3)
    held = obs["observation"][0]
    legal = np.flatnonzero(obs["action_mask"])
    if held[18:27].any():
        assert set(legal) <= set(range(18, 27))


def test_win_is_offered_and_taken():
    e = _find("guangdong", [WIN], seeds=range(5), bot=True)
    assert e is not None
    u = e.unwrapped
    agent = u.agent_selection
    e.step(WIN)
    st = u.hand_state
    assert st.ended and st.wins and st.wins[0]["seat"] == u.agent_name_mapping[agent]
    assert u._cumulative_rewards[agent] > 0


def test_action_names_and_render():
    assert action_name(5) == "discard 6m" and action_name(CHOW + 1) == "chow (middle)"
    assert action_name(39 + 27) == "concealed kong 1z" and action_name(WIN) == "win"
    assert action_name(VOID) == "void suit 万" and action_name(113) == "declare ready (open)"
    assert action_name(READY) == "declare ready (concealed)" and N_ACTIONS == 115
    assert action_name(OPEN_KONG) == "open kong (turn the tiles)"
    with pytest.raises(Exception, match="0..114"):
        action_name(N_ACTIONS)
    e = env("mcr", render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert text.startswith("mcr · hand 0") and text.count("player_") >= 5
    with pytest.raises(Exception, match="render_mode"):
        raw_env("mcr", render_mode="rgb")


def test_policy_action_after_the_hand_is_an_error():
    e = env("kawuxing")
    _play(e, _random(0), seed=0)
    assert e.unwrapped.possible_agents == ["player_0", "player_1", "player_2"]
    with pytest.raises(IllegalMoveError, match="hand is over"):
        e.unwrapped.policy_action(EfficiencyPlayer())


def test_robbing_an_added_kong():
    """Hand 0 of seed 94 under mcr with the efficiency bot in every seat: seat 3 adds a
    kong of 7p (kind 15) and seat 2 may rob it: decision 5, the kong's tile offered by
    relative seat 1, only win or pass legal; the win is recorded as robbing the kong."""
    e = env("mcr")
    u = e.unwrapped
    bot = EfficiencyPlayer()
    e.reset(seed=94)
    for agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        assert not (term or trunc), "no robbing decision in the hand"
        o = obs["observation"]
        if o[13, 0] == 5:
            break
        e.step(u.policy_action(bot))
    assert agent == "player_2" and np.flatnonzero(o[10]).tolist() == [15] and o[13, 1] == 1
    assert np.flatnonzero(obs["action_mask"]).tolist() == [WIN, PASS]
    kong = [x for x in u.hand_state.events if x["e"] == "kong"][-1]
    assert (kong["seat"], kong["kind"], kong["tile"]) == (3, "added", 15)
    e.step(WIN)
    assert u.hand_state.wins[0]["seat"] == 2 and u.hand_state.wins[0]["how"] == "robbing_kong"


def _shape_waits(concealed_13):
    """Kinds completing a concealed part into sets and a pair (or 七对 / 十三幺) by the
    peer library ``mahjong`` (its kind order is ours: 1m..9m 1p..9p 1s..9s E S W N
    white green red)."""
    from mahjong.agari import Agari
    out = []
    for k in range(34):
        if concealed_13[k] < 4:
            t = [int(x) for x in concealed_13]
            t[k] += 1
            if Agari().is_agari(t):
                out.append(k)
    return out


def _rollout_with_ready(ruleset, seed, on_ready):
    """Hand 0 of ``seed`` played by the efficiency bot through the env, but each ready
    decision (row 13 [0] = 6) answered by ``on_ready(agent, obs)``.  Returns the env, the
    ready decisions [(agent, obs, action)] and every later decision of each agent after
    it declared [(agent, obs)]."""
    e = env(ruleset)
    u = e.unwrapped
    bot = EfficiencyPlayer()
    e.reset(seed=seed)
    readies, after = [], []
    declared = set()
    for agent, obs in live_decisions(e):
        if obs["observation"][13, 0] == 6:
            a = on_ready(agent, obs)
            readies.append((agent, obs, a))
            if a != PASS:
                declared.add(agent)
        else:
            if agent in declared:
                after.append((agent, obs))
            a = u.policy_action(bot)
        e.step(a)
    return u, readies, after


@pytest.mark.parametrize("ruleset, kinds", [("shandong", [READY, READY + 1]),
                                            ("baoding", [READY]), ("lisi", [READY]),
                                            ("hainan_tuidao", [READY + 1])])
def test_ready_decisions_are_exactly_the_engines_asks(ruleset, kinds):
    """Hands that declare at every ready decision: each one comes right after
    the agent's own discard (the pool's last tile) and offers pass or the ruleset's
    declarations only (山东 暗楼 / 明楼, 保定 / 立四 报听, 海南 明摸); row 10 holds waits that
    complete the 13 tiles left by shape (the peer library ``mahjong``); the decisions are
    the engine's logged ``ready`` asks one for one, with the same waits."""
    seen = 0
    for seed in range(6):
        u, readies, _ = _rollout_with_ready(ruleset, seed, lambda a, o: kinds[-1])
        # (立四: a declaration by a tile held only standing is made for the seat, not asked)
        asks = [x for x in u.hand_state.events if x["e"] == "ready" and not x.get("forced")]
        assert len(asks) == len(readies)
        for (agent, obs, _), ask in zip(readies, asks):
            o = obs["observation"]
            p = u.agent_name_mapping[agent]
            assert ask["seat"] == p and np.flatnonzero(obs["action_mask"]).tolist() == \
                sorted([PASS] + kinds)
            waits = np.flatnonzero(o[10]).tolist()
            assert waits == ask["waits"] and waits
            # (立四 asks before the tile lands: face down if declared, in the pool if not)
            assert (o[6, ask["tile"]] >= 1 or ruleset == "lisi") and int(o[0].sum()) % 3 == 1
            if not o[2].any():                  # no melds: the 13 concealed tiles alone
                assert set(waits) <= set(_shape_waits(o[0]))
        seen += len(readies)
    assert seen > 0


def test_a_declared_hand_is_locked_and_shown_to_every_seat():
    """山东: an agent that declares concealed (112) is shown as declared (row 13 [24 + r]
    = 1) to every seat at its relative place; afterwards every own-turn decision offers
    only its drawn tile to discard (or a win / kong), and no claim decision offers it a
    chow, pung or exposed kong (docs/rules: after 报听 only 暗杠 and winning)."""
    checked = 0
    for seed in range(6):
        u, readies, after = _rollout_with_ready("shandong", seed, lambda a, o: READY)
        declared = [s.declared for s in u.hand_state.seats]
        for p, d in enumerate(declared):
            for q in range(4):
                o = u.observe(f"player_{q}")["observation"]
                assert o[13, 24 + (p - q) % 4] == (1 if d else 0)
        for agent, obs in after:
            o, m = obs["observation"], obs["action_mask"]
            if o[13, 0] == 2:
                assert np.flatnonzero(m[DISCARD:DISCARD + 34]).tolist() == \
                    np.flatnonzero(o[1]).tolist()
                checked += 1
            assert not m[CHOW:PUNG + 1].any() and not m[KONG]
    assert checked > 0


def test_no_win_without_a_declaration_where_one_is_required():
    """保定 / 立四 (a win only after declaring ready): efficiency bots that pass every
    ready decision are never offered a win, so the hand ends without one; 海南 推倒胡's
    open declaration (明摸) wins only by self-draw: no claim decision offers it a win."""
    passed = 0
    for ruleset in ("baoding", "lisi"):
        for seed in range(3):
            e = env(ruleset)
            u = e.unwrapped
            bot = EfficiencyPlayer()
            e.reset(seed=seed)
            for agent, obs in live_decisions(e):
                s = u.hand_state.seats[u.agent_name_mapping[agent]]
                # (立四: discarding a tile held only standing declares, unasked: a seat that
                # declared so may win)
                assert not obs["action_mask"][WIN] or (ruleset == "lisi" and s.declared)
                if obs["observation"][13, 0] == 6:
                    passed += 1
                    e.step(PASS)
                else:
                    e.step(u.policy_action(bot))
            st = u.hand_state
            assert all(st.seats[w["seat"]].declared for w in st.wins)
            assert ruleset == "lisi" or (not st.wins and not any(s.declared for s in st.seats))
    assert passed > 0
    declared = 0
    for seed in range(6):
        u, readies, after = _rollout_with_ready("hainan_tuidao", seed, lambda a, o: READY + 1)
        declared += len(readies)
        for agent, obs in after:
            assert obs["observation"][13, 24] == 2
            assert obs["observation"][13, 0] not in (4, 5) or not obs["action_mask"][WIN]
        opened = {p for p, s in enumerate(u.hand_state.seats) if s.declared == "open"}
        assert all(w["how"] in ("self_draw", "kong_replacement")
                   for w in u.hand_state.wins if w["seat"] in opened)
    assert declared > 0


def test_ready_actions_are_never_legal_where_nobody_declares():
    """MCR plays no ready declaration: no mask offers 112 / 113 and row 13 [24:29] stays 0."""
    e = env("mcr")
    rng = np.random.default_rng(0)
    e.reset(seed=0)
    for agent, obs in live_decisions(e):
        assert not obs["action_mask"][READY:].any() and not obs["observation"][13, 24:29].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
