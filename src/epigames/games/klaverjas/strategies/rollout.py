"""The card play of `mc`'s rollouts over bitmasks, compiled with numba where it is installed.

A card is a bit, `8 * suit + strength - 1` (suits in `Suit` order, strength under the
deal's trump), so within a suit a higher bit is a higher card; a hand is an int. Every
function reads the setting from one flat table of ints (`TABLE_SIZE` entries at the
offsets below, built by `mc.Sim`): a numpy array when numba compiles these functions, a
list otherwise. The same source runs either way, so the two give the same numbers (a
test compares them); only the speed differs, some fifty times on a rollout.

The trick on the table is `n` cards led in suit `led`, won so far by card `wbit` of seat
`wseat`, its cards `tmask` and their points `tpts`. A deal's running account `acc` holds
per team (0 North–South, 1 East–West) points at 0 and 1, roem at 2 and 3, tricks at 4
and 5.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar, cast

import numpy

try:
    import numba

    #: Whether the functions below are compiled (numba's own switch
    #: `NUMBA_DISABLE_JIT=1` turns it off, and the tests compare the two).
    COMPILED = not getattr(numba.config, "DISABLE_JIT", False)
except ImportError:  # the `fast` extra is not installed
    COMPILED = False

_F = TypeVar("_F", bound=Callable[..., Any])


class Ints(Protocol):
    """Ints as these functions take them: a list, or a numpy int64 array when compiled."""

    def __getitem__(self, index: int, /) -> int: ...

    def __setitem__(self, index: int, value: int, /) -> None: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[int]: ...

    def copy(self) -> Ints: ...


class Rows(Protocol):
    """Rows of `Ints` (a list of lists, or a two-dimensional numpy array)."""

    def __getitem__(self, index: int, /) -> Ints: ...

    def __setitem__(self, index: int, row: Any, /) -> None: ...  # a row of ints

    def __len__(self) -> int: ...


def _kernel(function: _F) -> _F:
    """Compile `function` with numba (cached on disk) where numba is installed."""
    if not COMPILED:
        return function
    return cast(_F, numba.njit(cache=True, nogil=True)(function))


# Offsets into the table.
ABOVE = 0  # 32: the cards above each card in its suit
PTS = 32  # 32: card points
RUNS = 64  # 4 × 256: sequence roem of each suit's eight-bit pattern
CHEAP = RUNS + 1024  # up to 32 masks: `cheap` order, fewest points first
FOUR = CHEAP + 32  # up to 8 pairs: a four of a kind's trick mask and its roem
TRUMP = FOUR + 16  # the trump suit (0-3)
TRUMP_MASK = TRUMP + 1
AMSTERDAM = TRUMP + 2  # 1 under Amsterdam rules
UNDERTRUMP = TRUMP + 3  # 0 forbid, 1 force, 2 free
STUK = TRUMP + 4  # the trump king and queen (a mask no trick covers without them)
CHEAP_COUNT = TRUMP + 5
FOUR_COUNT = TRUMP + 6
TABLE_SIZE = TRUMP + 7

UNDERTRUMP_CODES = {"forbid": 0, "force": 1, "free": 2}
PLAYERS = 4

# De Bruijn sequences for the index of a 32-bit mask's lowest and highest bit: numba has
# no `int.bit_length`, and these give the same answer in Python and compiled.
_LOW_TABLE = (
    0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
    31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9,
)  # fmt: skip
_HIGH_TABLE = (
    0, 9, 1, 10, 13, 21, 2, 29, 11, 14, 16, 18, 22, 25, 3, 30,
    8, 12, 20, 28, 15, 17, 24, 7, 19, 27, 23, 6, 26, 5, 4, 31,
)  # fmt: skip


@_kernel
def low(mask: int) -> int:
    """The lowest card (bit) of a non-empty mask below 2**32."""
    return _LOW_TABLE[(((mask & -mask) * 0x077CB531) & 0xFFFFFFFF) >> 27]


@_kernel
def high(mask: int) -> int:
    """The highest card (bit) of a non-empty mask below 2**32."""
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    return _HIGH_TABLE[((mask * 0x07C4ACDD) & 0xFFFFFFFF) >> 27]


@_kernel
def suit_mask(suit: int) -> int:
    """The eight bits of a suit."""
    return 0xFF << (8 * suit)


@_kernel
def legal(table: Ints, hand: int, seat: int, n: int, led: int, wbit: int, wseat: int) -> int:
    """The cards of `hand` that `seat` may play to the trick (as `play.legal_cards`)."""
    if n == 0:
        return hand
    follow = hand & suit_mask(led)
    t = table[TRUMP]
    if led == t:
        # A trump lead is won by the highest trump in the trick, so `wbit` is it.
        over = follow & table[ABOVE + wbit]
        if over:
            return over
        return follow if follow else hand
    if follow:
        return follow
    if table[AMSTERDAM] and wseat == seat ^ 2:
        return hand
    trumps = hand & table[TRUMP_MASK]
    if not trumps:
        return hand
    if wbit >> 3 != t:
        return trumps
    over = trumps & table[ABOVE + wbit]
    if over:
        return over
    rule = table[UNDERTRUMP]
    if rule == 0:
        plain = hand & ~table[TRUMP_MASK]
        return plain if plain else trumps
    if rule == 1:
        return trumps
    return hand


@_kernel
def trick_roem(table: Ints, tmask: int) -> int:
    """The roem of a complete trick (as `play.roem`)."""
    total = (
        table[RUNS + (tmask & 0xFF)]
        + table[RUNS + 256 + (tmask >> 8 & 0xFF)]
        + table[RUNS + 512 + (tmask >> 16 & 0xFF)]
        + table[RUNS + 768 + (tmask >> 24 & 0xFF)]
    )
    stuk = table[STUK]
    if tmask & stuk == stuk:
        total += 20
    for i in range(table[FOUR_COUNT]):
        if tmask == table[FOUR + 2 * i]:
            total += table[FOUR + 2 * i + 1]
    return total


@_kernel
def cheap(table: Ints, legal_cards: int) -> int:
    """The cheapest card: fewest points, a plain card before a trump, then the lowest."""
    for i in range(table[CHEAP_COUNT]):
        m = table[CHEAP + i] & legal_cards
        if m:
            return low(m)
    raise ValueError("no card to play")


@_kernel
def can_beat(table: Ints, hand: int, x: int, led: int) -> bool:
    """Whether a player with `hand`, playing after `x` wins the trick, could beat it."""
    follow = hand & suit_mask(led)
    if follow:
        return x >> 3 == led and (follow & table[ABOVE + x]) != 0
    trumps = hand & table[TRUMP_MASK]
    if not trumps:
        return False
    return x >> 3 != table[TRUMP] or (trumps & table[ABOVE + x]) != 0


@_kernel
def pick(
    table: Ints, h: Ints, seat: int, legal_cards: int, n: int, led: int, wbit: int, wseat: int
) -> int:
    """The rollout policy's card, all hands `h` known.

    Lead: the highest trump when it is the best left and an opponent holds trumps;
    a low trump when the partner holds the best one; else the plain card worth most
    that is the best left of its suit and that no opponent can trump; else a low card
    of a suit the partner wins for sure; else the cheapest card, a plain one if any.
    Follow, the partner winning for sure: throw the plain card worth most (a suit's
    best card is kept back); the partner winning but beatable by the next player:
    the cheapest card that the next player cannot beat. An opponent winning: last
    to play, the cheapest card that wins; else the cheapest winner the opponent
    still to play cannot beat. Otherwise the cheapest card. (Each rule was kept
    when it beat the policy without it in duels of policies on open hands.)
    """
    if not legal_cards & (legal_cards - 1):
        return low(legal_cards)
    t = table[TRUMP]
    tm = table[TRUMP_MASK]
    partner = seat ^ 2
    if n == 0:
        o1 = h[seat ^ 1]
        o3 = h[seat ^ 3]
        opp = o1 | o3
        others = opp | h[partner]
        mine = legal_cards & tm
        if mine and opp & tm:
            top = high(mine)
            if not others & table[ABOVE + top]:
                return top
            theirs = h[partner] & tm
            if theirs and not opp & table[ABOVE + high(theirs)]:
                return low(mine)
        best = -1
        best_pts = -1
        for s in range(4):
            sm = suit_mask(s)
            m = legal_cards & sm
            if s == t or not m:
                continue
            c = high(m)
            if others & table[ABOVE + c]:
                continue
            if (not o1 & sm and o1 & tm) or (not o3 & sm and o3 & tm):
                continue
            if table[PTS + c] > best_pts:
                best = c
                best_pts = table[PTS + c]
        if best >= 0:
            return best
        ph = h[partner]
        for s in range(4):
            sm = suit_mask(s)
            m = legal_cards & sm
            pm = ph & sm
            if s == t or not m or not pm or opp & table[ABOVE + high(pm)]:
                continue
            if (not o1 & sm and o1 & tm) or (not o3 & sm and o3 & tm):
                continue
            return low(m)
        plain = legal_cards & ~tm
        return cheap(table, plain if plain else legal_cards)
    nxt = h[(seat + 1) & 3]
    # A card wins the trick when it is above the winning card in its suit, or a trump
    # over a plain winner.
    winners = table[ABOVE + wbit] | (tm if wbit >> 3 != t else 0)
    if wseat == partner:
        if n == 3 or not can_beat(table, nxt, wbit, led):
            plain = legal_cards & ~tm
            if not plain:
                return cheap(table, legal_cards)
            others = h[seat ^ 1] | h[seat ^ 3] | h[partner]
            best = -1
            best_pts = -1
            for s in range(4):
                m = plain & suit_mask(s)
                if not m:
                    continue
                c = high(m)
                if not others & table[ABOVE + c]:
                    c = low(m)
                if table[PTS + c] > best_pts:
                    best = c
                    best_pts = table[PTS + c]
            return best
        first = legal_cards & winners
        second = 0
    else:
        win = legal_cards & winners
        if not win:
            return cheap(table, legal_cards)
        plain = win & ~tm
        if n == 3:
            return low(plain if plain else win)
        # The one opponent still to play sits next: a second hand's partner is last.
        first = plain
        second = win & tm
    # The cheapest winning card (of the first group that has one) the next player
    # cannot beat.
    for group in (first, second):
        while group:
            c = low(group)
            if not can_beat(table, nxt, c, led):
                return c
            group &= group - 1
    return cheap(table, legal_cards)


@_kernel
def finish(
    table: Ints,
    h: Ints,
    turn: int,
    n: int,
    led: int,
    wbit: int,
    wseat: int,
    tmask: int,
    tpts: int,
    acc: Ints,
    first: int,
) -> None:
    """Play the deal out with the rollout policy, `turn` to play (`first`, if not -1).

    `h` and `acc` are updated in place.
    """
    t = table[TRUMP]
    card = first
    while True:
        seat = turn
        if card < 0:
            hand = h[seat]
            if not hand:
                return
            card = pick(
                table, h, seat, legal(table, hand, seat, n, led, wbit, wseat), n, led, wbit, wseat
            )
        bit = 1 << card
        h[seat] ^= bit
        if n == 0:
            led = card >> 3
            wbit = card
            wseat = seat
            tmask = bit
            tpts = table[PTS + card]
        else:
            if (card >> 3 == wbit >> 3 and card > wbit) or (card >> 3 == t and wbit >> 3 != t):
                wbit = card
                wseat = seat
            tmask |= bit
            tpts += table[PTS + card]
        card = -1
        n += 1
        if n < PLAYERS:
            turn = (seat + 1) & 3
            continue
        team = wseat & 1
        if not (h[0] | h[1] | h[2] | h[3]):
            tpts += 10
        acc[team] += tpts
        acc[2 + team] += trick_roem(table, tmask)
        acc[4 + team] += 1
        n = 0
        turn = wseat


@_kernel
def score(acc: Ints, playing: int, team: int) -> int:
    """`team`'s deal score minus the other's, from a finished deal's `acc` (as
    `play.score_deal`: nat, the playing team scores nothing and the defenders
    everything; pit, 100 more)."""
    s0 = acc[0] + acc[2]
    s1 = acc[1] + acc[3]
    if playing == 0:
        d = -(s0 + s1) if s0 <= s1 else s0 - s1 + (100 if acc[5] == 0 else 0)
    else:
        d = s0 + s1 if s1 <= s0 else s0 - s1 - (100 if acc[4] == 0 else 0)
    return d if team == 0 else -d


@_kernel
def card_totals(
    table: Ints,
    hands: Rows,
    bits: Ints,
    seat: int,
    trick: Ints,
    acc0: Ints,
    playing: int,
    weights: Ints,
    totals: Ints,
) -> None:
    """Add to `totals[i]` the score of playing card `bits[i]` now, summed over the deals,
    deal `s` counted `weights[s]` times.

    `hands[s]` is deal `s` (four hands); `trick` is `n, led, wbit, wseat, tmask, tpts`;
    `acc0` the deal's account so far. Every card is played out on every deal.
    """
    team = seat & 1
    for s in range(len(hands)):
        w = weights[s]
        if not w:
            continue
        for i in range(len(bits)):
            h = hands[s].copy()
            acc = acc0.copy()
            finish(
                table, h, seat, trick[0], trick[1], trick[2], trick[3], trick[4], trick[5],
                acc, bits[i],
            )  # fmt: skip
            totals[i] += w * score(acc, playing, team)


@_kernel
def surprises(
    table: Ints, hands: Rows, plays: Ints, seat: int, chooser: int, strength: Ints, out: Ints
) -> None:
    """Count, per deal, the cards the other players played this deal that the rollout
    policy would not have played in their place (a choice between two or more cards),
    and the suits that were better trumps than the one named for the hand that named it.

    `hands[s]` is deal `s`'s hands now; `plays` this deal's cards in order, as pairs of
    seat and bit (tricks of four, each led by its first). The hands at each play are
    those of now plus the cards played from then on, so the count says how well deal `s`
    explains the play as the policy's: `mc` weighs its deals by it. `chooser` is the
    seat that named trump (-1 when it was this seat or chance); `strength[4 * b + u]` is
    what card `b` adds to a hand's strength with suit `u` as trump (`TRUMP` is the named
    suit).
    """
    count = len(plays) // 2
    for s in range(len(hands)):
        h = hands[s].copy()
        for k in range(count):
            h[plays[2 * k]] |= 1 << plays[2 * k + 1]
        m = 0
        if chooser >= 0:
            named = 0
            best = 0
            for u in range(4):
                total = 0
                cards = h[chooser]
                while cards:
                    b = low(cards)
                    total += strength[4 * b + u]
                    cards &= cards - 1
                if u == table[TRUMP]:
                    named = total
                elif total > best:
                    best = total
            if best > named:
                m += 1
        t = table[TRUMP]
        n = led = wbit = wseat = 0
        for k in range(count):
            who = plays[2 * k]
            card = plays[2 * k + 1]
            if who != seat:
                options = legal(table, h[who], who, n, led, wbit, wseat)
                # A forced card tells nothing.
                if options & (options - 1) and (
                    pick(table, h, who, options, n, led, wbit, wseat) != card
                ):
                    m += 1
            h[who] ^= 1 << card
            if n == 0:
                led = card >> 3
                wbit = card
                wseat = who
            elif (card >> 3 == wbit >> 3 and card > wbit) or (card >> 3 == t and wbit >> 3 != t):
                wbit = card
                wseat = who
            n = n + 1 if n < 3 else 0
        out[s] = m


@_kernel
def deal_total(table: Ints, hands: Rows, eldest: int, team: int, acc0: Ints) -> int:
    """The summed score of `team`, the playing team, over the deals, each played out
    from the first lead (a trump choice); `acc0` is six zeros."""
    total = 0
    for s in range(len(hands)):
        h = hands[s].copy()
        acc = acc0.copy()
        finish(table, h, eldest, 0, 0, 0, 0, 0, 0, acc, -1)
        total += score(acc, team, team)
    return total


@_kernel
def world_hands(deck_bits: Ints, worlds: Rows, hands: Rows) -> None:
    """Fill `hands[s]` with deal `s`'s four hands; `worlds[s][j]` holds deck card `j`'s
    holder (a seat, or another place)."""
    for s in range(len(worlds)):
        for j in range(len(deck_bits)):
            holder = worlds[s][j]
            if 0 <= holder < PLAYERS:
                hands[s][holder] |= 1 << deck_bits[j]


def ints(values: Sequence[int]) -> Ints:
    """Ints as these functions take them: a numpy int64 array when compiled, else a list."""
    if COMPILED:
        return numpy.array(values, dtype=numpy.int64)
    return list(values)


def zeros(count: int, width: int) -> Rows:
    """`count` rows of `width` zeros, as these functions take them (see `ints`)."""
    if COMPILED:
        return numpy.zeros((count, width), dtype=numpy.int64)
    return [[0] * width for _ in range(count)]


def rows(values: Sequence[Sequence[int]]) -> Rows:
    """Rows of ints as these functions take them (see `ints`)."""
    if COMPILED:
        return numpy.array(values, dtype=numpy.int64)
    return [list(row) for row in values]
