"""What one seat may see: :class:`SeatView`, the read-only view every policy is asked
with (the built-in bots of :mod:`majiang.game.players` read nothing else).  Split from
:mod:`majiang.game.players`, which re-exports it."""
from __future__ import annotations

import numpy as np

from .seen_events import _SeenEvents
from .wait_judge import wait_judge

__all__ = ["SeatView"]


class SeatView(_SeenEvents):
    """What one seat may see (read-only properties; built per decision on demand).

    Attributes: ``seat``, ``players``, ``dealer``, ``seat_wind``, ``prevalent_wind``,
    ``ruleset`` (name), ``concealed`` (``uint8 (34,)`` physical kinds of the own concealed
    tiles, jokers included at the joker kind), ``joker_kind`` (None without jokers),
    ``joker_kinds`` (every wild kind: two under 南昌 / 天津), ``indicator``, ``drawn`` (the own
    drawn tile, or None), ``melds`` (per seat: ``(kind, tile, concealed)``; another seat's
    concealed kong shows ``tile=None``), ``discards`` (per seat: tiles still in the pool, in
    order), ``flowers`` (per seat: count), ``wall_left``, ``scores`` (per seat, this hand so
    far), ``won`` (seats that have won), ``wins`` (every win so far, in order: ``(seat, how)``
    with ``how`` one of ``"self_draw"``, ``"kong_replacement"``, ``"discard"``,
    ``"robbing_kong"``), ``draws_made`` (tiles the own seat has drawn in play, flower
    replacements not counted), ``voids`` (declared void suits, -1 none), ``legal_discards``,
    ``declared`` (per seat: ``""`` or the ready declaration made, ``"concealed"`` /
    ``"open"`` / ``"deal"`` / ``"first_draw"``, public), ``locked`` (per seat: a locked hand,
    public), ``kong_reveal`` (tiles a 开杠 turns, 0 none), ``ready_kinds`` (the declarations
    the table plays, empty: none), ``ready_offered`` (while a ready declaration is asked,
    the kinds the seat may make now, :func:`~majiang.game.engine.declare.offered_kinds`;
    empty otherwise), ``ready_required`` (a win needs a declaration); under standing tiles
    (立四, :mod:`majiang.game.engine.declare`) ``standing`` (the own, by kind),
    ``standing_counts`` and ``face_down`` (per seat, counts: public), ``declaring_discards``
    (the own standing kinds whose discard declares now) and ``standing_left_after(taken)``.

    For a policy that weighs shapes (the built-in efficiency bot uses nothing else):

    * ``model`` — the ruleset's :class:`~majiang.rules.model.RuleSpec` (tile set, forms,
      ``shape(melds).caps``, ``n_flowers``);
    * ``own_melds`` — the own melds as a tuple of :class:`~majiang.hand.Meld`;
    * ``stand_in`` — the kind that plays as the joker kind (安庆 白板), or None;
    * ``play_kind(tile)`` — the kind a physical tile plays as (a stand-in: the joker kind);
    * ``play_counts()`` — ``(counts, jokers)``: the own concealed tiles as played, ``uint8
      (34,)`` with the wild tiles taken out (and a stand-in moved to the kind it plays as), and
      ``jokers`` the number of wild tiles held (``int``);
    * ``visible_counts()`` — ``uint8 (34,)`` by kind as played: what the seat sees outside its
      own hand and own melds (every discard pool, the other seats' exposed melds, a face-up
      indicator);
    * ``unseen_counts()`` — ``int64 (34,)``: the copies of each kind the seat does not see
      (the tile set less its concealed tiles, its melds and ``visible_counts()``, at least 0);
    * ``shape_options(extra_melds=())`` — the :class:`majiang._core.game.ShapeOpts` the
      compiled shanten / ukeire / discard functions take for the own melds plus hypothetical
      ``extra_melds`` (a call being weighed): the ruleset's forms, its 2-5-8 pair rule, live
      copies from the tile set less those melds, none of the declared void suit (定缺); under
      缺门 at the win the void-suit bits of the suits those melds leave free (the shanten is
      the least over them: the plan is chosen again at each decision);
    * ``last_discard`` — ``(seat, physical tile)`` of the latest discard, or None;
    * ``min_aware`` — a complete shape may still not win (:func:`~majiang.game.engine.min_aware`);
    * ``judge_waits(jokers=0, extra_melds=())`` — ``(verdict, hope)`` of
      :func:`~majiang.game.players.pick_valid_wait` for the own hand
      (:func:`~majiang.game.wait_judge.wait_judge` with the seat's wind and
      flowers): ``verdict(after, w)`` tells whether a 3n+1 hand ``after`` (``uint8 (34,)`` as
      played) plus wait ``w`` wins as a self-draw.

    Nothing here (nor in :mod:`~majiang.game.seen_events`) shows others' tiles or the wall.
    """

    __slots__ = ("_st", "seat")

    def __init__(self, state, seat: int) -> None:
        self._st = state
        self.seat = seat

    @property
    def players(self) -> int:
        return self._st.n

    @property
    def dealer(self) -> int:
        return self._st.dealer

    @property
    def seat_wind(self) -> int:
        return (self.seat - self._st.dealer) % self._st.n

    @property
    def prevalent_wind(self) -> int:
        return self._st.prevalent

    @property
    def ruleset(self) -> str:
        return self._st.rs.name

    @property
    def concealed(self) -> np.ndarray:
        return self._st.seats[self.seat].phys.copy()

    @property
    def joker_kind(self):
        return self._st.jk if self._st.jk >= 0 else None

    @property
    def joker_kinds(self) -> tuple:
        """Every wild kind of the hand (``()`` without jokers; two kinds under 南昌 /
        天津)."""
        return tuple(getattr(self._st, "jks", ()))

    @property
    def indicator(self):
        return self._st.indicator

    @property
    def drawn(self):
        return self._st.seats[self.seat].drawn

    @property
    def melds(self) -> list:
        out = []
        for q, s in enumerate(self._st.seats):
            out.append([(m["kind"], None if (m["concealed"] and q != self.seat) else m["tile"],
                         m["concealed"]) for m in s.melds])
        return out

    @property
    def discards(self) -> list:
        return [list(s.discards) for s in self._st.seats]

    @property
    def flowers(self) -> list:
        st = self._st
        if getattr(st, "flower_jokers", False):      # 花鬼: flowers are hidden jokers
            return [len(s.flowers) if q == self.seat else 0 for q, s in enumerate(st.seats)]
        return [len(s.flowers) for s in st.seats]

    @property
    def wall_left(self) -> int:
        return self._st.wall_left

    @property
    def scores(self) -> list:
        return list(self._st.deltas)

    @property
    def won(self) -> list:
        return sorted({w["seat"] for w in self._st.wins})

    @property
    def wins(self) -> list:
        return [(int(w["seat"]), w["how"]) for w in self._st.wins]

    @property
    def draws_made(self) -> int:
        return int(self._st.seats[self.seat].n_drawn)

    @property
    def voids(self) -> list:
        return [s.void for s in self._st.seats]

    @property
    def legal_discards(self) -> list:
        return self._st.legal_discards(self.seat)

    @property
    def declared(self) -> list:
        return [s.declared for s in self._st.seats]

    @property
    def locked(self) -> list:
        """Per seat: its hand is locked (a 血流 winner's, or a 开杠's konger nobody won
        on, :mod:`majiang.game.engine.open_kong`): it discards each tile it draws unless
        it wins, and makes no call or kong.  Public."""
        return [bool(s.locked) for s in self._st.seats]

    @property
    def kong_reveal(self) -> int:
        """Tiles a 开杠 turns under the table's rules (0: every kong a 补张)."""
        return int(self._st.rs.kong_reveal)

    @property
    def ready_kinds(self) -> tuple:
        return tuple(getattr(self._st, "ready_kinds", ()))

    @property
    def ready_offered(self) -> tuple:
        return tuple(getattr(self._st, "ready_offered", ()))

    @property
    def ready_required(self) -> bool:
        return bool(getattr(self._st, "must_declare", False))

    @property
    def standing(self) -> np.ndarray:
        """The own standing tiles (立四) by kind, ``uint8 (34,)`` (all zero without them):
        held in :attr:`concealed` too, discarded only to declare ready."""
        return self._st.seats[self.seat].standing.copy()

    @property
    def standing_counts(self) -> list:
        """Per seat: how many standing tiles (立四) it still holds (public: they stand
        apart, face down) and ``face_down`` the declaring tiles laid face down."""
        return [int(s.standing.sum()) for s in self._st.seats]

    @property
    def face_down(self) -> list:
        """Per seat: how many tiles it discarded face down (立四's declaration)."""
        return [len(s.face_down) for s in self._st.seats]

    @property
    def declaring_discards(self) -> list:
        """The own standing kinds (立四) whose discard now declares ready (the hand left is
        ready, :func:`~majiang.game.engine.declare.standing_declarations`); empty
        otherwise."""
        st = self._st
        s = st.seats[self.seat]
        if not getattr(st, "standing", 0) or (int(s.phys.sum()) + 3 * len(s.melds)) % 3 != 2:
            return []
        from .engine.declare import standing_declarations
        return list(standing_declarations(st, self.seat))

    def standing_left_after(self, taken: dict) -> int:
        """How many standing tiles (立四) the own seat keeps after putting the concealed
        tiles ``taken`` (``{physical kind: n}``) into a meld (the engine takes standing
        copies first while another is left:
        :func:`~majiang.game.engine.declare.standing_used`)."""
        from .engine.declare import standing_left_after
        return standing_left_after(self._st.seats[self.seat], taken)

    # -- for shape-weighing policies (see the class docstring)
    @property
    def model(self):
        return self._st.model

    @property
    def own_melds(self) -> tuple:
        return self._st.meld_objects(self.seat)

    @property
    def stand_in(self):
        sub = self._st.sub
        return sub if sub >= 0 else None

    def play_kind(self, tile: int) -> int:
        return self._st.play_kind(tile)

    def play_counts(self):
        return self._st.play_counts(self.seat)

    def visible_counts(self) -> np.ndarray:
        return self._st.seat_visible(self.seat)

    def unseen_counts(self) -> np.ndarray:
        c, _ = self.play_counts()
        seen = self.visible_counts().astype(np.int64) + c.astype(np.int64)
        for m in self.own_melds:
            for t in m.tiles:
                seen[t] += 1
        return np.maximum(np.asarray(self.model.copies, dtype=np.int64) - seen, 0)

    def shape_options(self, extra_melds=()):
        return self._st.opts_with(self.seat, tuple(extra_melds))

    @property
    def last_discard(self):
        return self._st.last_discard

    @property
    def min_aware(self) -> bool:
        return self._st.min_aware

    def judge_waits(self, jokers: int = 0, extra_melds=()):
        st, p = self._st, self.seat
        faces, ind = None, None
        if getattr(st, "by_faces", False):     # the values read the wild tiles' faces
            faces = np.zeros(34, dtype=np.uint8)
            for k in st.jks:
                faces[k] = st.seats[p].phys[k]
            ind = st.indicator if st.indicator is not None else st.jk
        return wait_judge(st.check_win, st.rs, st.model, st.wait_cache,
                          st.meld_objects(p) + tuple(extra_melds),
                          (p - st.dealer) % st.n, st.prevalent, jokers,
                          len(st.seats[p].flowers), faces, ind,
                          st.model.seat_fan(st.seats[p].discards)
                          if getattr(st, "_seat_fan", False) else 0)

    def __repr__(self) -> str:
        from ..tiles import format_counts
        return (f"SeatView(seat={self.seat}, hand={format_counts(self.concealed)}, "
                f"wall_left={self.wall_left})")
