/* Three hot paths of the card engine in C: the reduction of the facts
 * (`epigames.cards.problem.reduce_facts`), the flow's possible holders
 * (`epigames.cards.flow.possible_from_facts`) and the exact counting of the deals and
 * marginals of a reduced problem (`epigames.cards.counting.CountTable`, used by
 * `epigames.cards.knowledge._Solved`).
 *
 * The same algorithms as the Python modules (read their docstrings for the why). Here a
 * mask is one machine word, so they answer only problems of at most 64 cards (and, for
 * the flow, 64 nodes: groups and holders; for the counting, tables of bounded size and
 * counts below 2**128); for any other, and for facts that contradict each other, they
 * return NotImplemented (the counting: a total of 0) and the Python code answers (and
 * words the error). Built beside the mypyc modules and used only where they are
 * (`epigames.native.c_module`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t u64;

#define MAX_NODES 64
#define MAX_HOLDERS 64

#if defined(__GNUC__) || defined(__clang__)
static int popc(u64 x) { return __builtin_popcountll(x); }
static int low_index(u64 x) { return __builtin_ctzll(x); }
#else
static int popc(u64 x) {
    int n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
}
static int low_index(u64 x) {
    int i = 0;
    while (!(x & 1)) { x >>= 1; i++; }
    return i;
}
#endif

#define LOW_BIT(x) ((x) & (~(x) + 1))
#define BIT(i) ((u64)1 << (i))

/* A problem this code cannot take: the caller answers in Python. */
#define UNSUPPORTED 1
/* No deal meets the facts, or they are not of the flow's shape: None. */
#define NO_DEAL 2

typedef struct {
    int n_groups;
    int n_slots;
    int holders[MAX_HOLDERS]; /* per slot: the holder index */
    int caps[MAX_HOLDERS];    /* per slot */
    int holder[MAX_NODES];    /* per group: its slot */
    u64 cards[MAX_NODES];
    int low[MAX_NODES];
    int high[MAX_NODES];
} Groups;

typedef struct {
    u64 cards;
    int low;
    int high;
} Bound;

/* Exact: fails (UNSUPPORTED) for a negative int or one of 64 bits or more. */
static int exact_mask(PyObject *value, u64 *out) {
    unsigned long long got = PyLong_AsUnsignedLongLong(value);
    if (got == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        return UNSUPPORTED;
    }
    *out = (u64)got;
    return 0;
}

/* Modulo 2**64: for masks that only ever meet exact ones in an `&` (a lack mask may be a
 * negative int, all ones above its cards). */
static int wrapped_mask(PyObject *value, u64 *out) {
    unsigned long long got = PyLong_AsUnsignedLongLongMask(value);
    if (got == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (u64)got;
    return 0;
}

static int small_int(PyObject *value, long *out) {
    long got = PyLong_AsLong(value);
    if (got == -1 && PyErr_Occurred()) return -1;
    *out = got;
    return 0;
}

/* A failed read of the arguments: Python reads them and says what is wrong (only a
 * failed allocation is raised from here). */
static PyObject *python_answers(void) {
    if (PyErr_ExceptionMatches(PyExc_MemoryError)) return NULL;
    PyErr_Clear();
    Py_RETURN_NOTIMPLEMENTED;
}

/* ---- the flow (see flow.py: _transposed, _arcs, _path, _move_along, _first_deal) ---- */

static void arcs_of(const Groups *g, const u64 *at, const int *count, const u64 *card_groups,
                    u64 *arcs) {
    int n_groups = g->n_groups;
    for (int i = 0; i < n_groups + g->n_slots; i++) arcs[i] = 0;
    for (int y = 0; y < n_groups; y++) {
        u64 out = 0, rest = at[y];
        while (rest) {
            u64 bit = LOW_BIT(rest);
            rest ^= bit;
            out |= card_groups[low_index(bit)];
        }
        if (count[y] < g->high[y]) out |= BIT(n_groups + g->holder[y]);
        arcs[y] = out & ~BIT(y);
        if (count[y] > g->low[y]) arcs[n_groups + g->holder[y]] |= BIT(y);
    }
}

/* A shortest path from a node of `starts` to one of `goals`: its length, nodes in `path`;
 * 0 if there is none. */
static int shortest_path(const u64 *arcs, int n, u64 starts, u64 goals, int *path) {
    int parent[MAX_NODES];
    int queue[MAX_NODES];
    int head = 0, tail = 0;
    for (int i = 0; i < n; i++) parent[i] = -1;
    u64 rest = starts;
    while (rest) {
        u64 bit = LOW_BIT(rest);
        rest ^= bit;
        queue[tail++] = low_index(bit);
    }
    u64 seen = starts;
    while (head < tail) {
        int u = queue[head++];
        if (goals & BIT(u)) {
            int len = 0, v = u;
            while (v >= 0) {
                path[len++] = v;
                v = parent[v];
            }
            for (int i = 0; i < len / 2; i++) {
                int t = path[i];
                path[i] = path[len - 1 - i];
                path[len - 1 - i] = t;
            }
            return len;
        }
        u64 fresh = arcs[u] & ~seen;
        seen |= fresh;
        while (fresh) {
            u64 bit = LOW_BIT(fresh);
            fresh ^= bit;
            int v = low_index(bit);
            parent[v] = u;
            queue[tail++] = v;
        }
    }
    return 0;
}

static void move_along(u64 *at, int *count, const u64 *allowed, int n_groups, const int *path,
                       int len) {
    for (int i = len - 1; i > 0; i--) {
        int u = path[i - 1], v = path[i];
        if (u < n_groups && v < n_groups) {
            u64 pick = at[u] & allowed[v];
            u64 bit = LOW_BIT(pick);
            at[u] ^= bit;
            at[v] |= bit;
            count[u]--;
            count[v]++;
        }
    }
}

/* One consistent deal into `at` and `count`; 0, or NO_DEAL. */
static int first_deal(const Groups *g, u64 free_cards, const u64 *card_groups, u64 *at,
                      int *count) {
    int n_groups = g->n_groups, n = n_groups + g->n_slots;
    int taken[MAX_HOLDERS];
    u64 arcs[MAX_NODES];
    int path[MAX_NODES];
    u64 left = free_cards;
    for (int s = 0; s < g->n_slots; s++) taken[s] = 0;
    for (int i = 0; i < n_groups; i++) {
        at[i] = 0;
        count[i] = 0;
    }
    for (int i = 0; i < n_groups; i++) {
        int h = g->holder[i];
        if (g->low[i] && taken[h] < g->caps[h]) {
            u64 pick = g->cards[i] & left;
            if (pick) {
                u64 bit = LOW_BIT(pick);
                at[i] = bit;
                count[i] = 1;
                taken[h]++;
                left ^= bit;
            }
        }
    }
    for (int i = 0; i < n_groups; i++) {
        int h = g->holder[i];
        u64 pick = g->cards[i] & left;
        while (pick && count[i] < g->high[i] && taken[h] < g->caps[h]) {
            u64 bit = LOW_BIT(pick);
            pick ^= bit;
            at[i] |= bit;
            count[i]++;
            taken[h]++;
            left ^= bit;
        }
    }
    while (left) {
        u64 card = LOW_BIT(left);
        left ^= card;
        u64 starts = card_groups[low_index(card)];
        u64 room = 0;
        for (int s = 0; s < g->n_slots; s++)
            if (taken[s] < g->caps[s]) room |= BIT(n_groups + s);
        arcs_of(g, at, count, card_groups, arcs);
        int len = shortest_path(arcs, n, starts, room, path);
        if (!len) return NO_DEAL;
        int first = path[0];
        at[first] |= card;
        count[first]++;
        taken[path[len - 1] - n_groups]++;
        move_along(at, count, g->cards, n_groups, path, len);
    }
    for (int i = 0; i < n_groups; i++) {
        if (count[i] < g->low[i]) {
            arcs_of(g, at, count, card_groups, arcs);
            int len = shortest_path(arcs, n, BIT(n_groups + g->holder[i]), BIT(i), path);
            if (!len) return NO_DEAL;
            move_along(at, count, g->cards, n_groups, path, len);
        }
    }
    return 0;
}

/* Per node its component, per component the cards its nodes reach (Kosaraju). */
static void reach_by_component(const u64 *arcs, int n, const u64 *at, int n_groups, int *comp,
                               u64 *reach) {
    u64 back[MAX_NODES];
    int order[MAX_NODES], stack[MAX_NODES];
    u64 members[MAX_NODES], leaving[MAX_NODES];
    int n_order = 0;
    for (int j = 0; j < n; j++) back[j] = 0;
    for (int i = 0; i < n; i++) {
        u64 rest = arcs[i];
        while (rest) {
            u64 bit = LOW_BIT(rest);
            rest ^= bit;
            back[low_index(bit)] |= BIT(i);
        }
    }
    u64 seen = 0;
    for (int s = 0; s < n; s++) {
        if (seen & BIT(s)) continue;
        seen |= BIT(s);
        int depth = 0;
        stack[depth++] = s;
        while (depth) {
            int u = stack[depth - 1];
            u64 fresh = arcs[u] & ~seen;
            if (fresh) {
                u64 bit = LOW_BIT(fresh);
                seen |= bit;
                stack[depth++] = low_index(bit);
            } else {
                depth--;
                order[n_order++] = u;
            }
        }
    }
    int n_comp = 0;
    seen = 0;
    for (int i = n - 1; i >= 0; i--) {
        int s = order[i];
        if (seen & BIT(s)) continue;
        int c = n_comp++;
        seen |= BIT(s);
        u64 todo = BIT(s), mask = 0, out = 0, held = 0;
        while (todo) {
            u64 bit = LOW_BIT(todo);
            todo ^= bit;
            int u = low_index(bit);
            comp[u] = c;
            mask |= bit;
            out |= arcs[u];
            if (u < n_groups) held |= at[u];
            u64 fresh = back[u] & ~seen;
            seen |= fresh;
            todo |= fresh;
        }
        members[c] = mask;
        leaving[c] = out & ~mask;
        reach[c] = held;
    }
    for (int c = n_comp - 1; c >= 0; c--) {
        u64 held = reach[c], rest = leaving[c];
        while (rest) {
            int other = comp[low_index(rest)];
            held |= reach[other];
            rest &= ~members[other];
        }
        reach[c] = held;
    }
}

/* `possible_by_flow` into `result` (per holder); 0, or NO_DEAL. */
static int possible_by_flow(const Groups *g, u64 free_cards, u64 *result, int n_holders) {
    int n_groups = g->n_groups, n = n_groups + g->n_slots;
    u64 card_groups[64];
    u64 at[MAX_NODES], arcs[MAX_NODES], reach[MAX_NODES];
    int count[MAX_NODES], comp[MAX_NODES];
    for (int j = 0; j < 64; j++) card_groups[j] = 0;
    for (int i = 0; i < n_groups; i++) {
        u64 rest = g->cards[i];
        while (rest) {
            u64 bit = LOW_BIT(rest);
            rest ^= bit;
            card_groups[low_index(bit)] |= BIT(i);
        }
    }
    int failed = first_deal(g, free_cards, card_groups, at, count);
    if (failed) return failed;
    arcs_of(g, at, count, card_groups, arcs);
    reach_by_component(arcs, n, at, n_groups, comp, reach);
    for (int h = 0; h < n_holders; h++) result[h] = 0;
    for (int b = 0; b < n_groups; b++)
        result[g->holders[g->holder[b]]] |= reach[comp[b]] & g->cards[b];
    return 0;
}

/* ---- the facts (see flow.py: possible_from_facts, groups_of) ---- */

/* Per holder, its sets in order of first appearance (as the Python dict keeps them). */
typedef struct {
    int n[MAX_HOLDERS];
    Bound sets[MAX_HOLDERS][MAX_NODES];
} Bounds;

static Bound *find_set(Bounds *b, int h, u64 cards) {
    for (int i = 0; i < b->n[h]; i++)
        if (b->sets[h][i].cards == cards) return &b->sets[h][i];
    return NULL;
}

static int add_set(Bounds *b, int h, u64 cards, int low, int high) {
    if (b->n[h] >= MAX_NODES) return UNSUPPORTED;
    Bound *slot = &b->sets[h][b->n[h]++];
    slot->cards = cards;
    slot->low = low;
    slot->high = high;
    return 0;
}

/* A Python sequence as a fast sequence: the items of a list or tuple, else a copy. */
typedef struct {
    PyObject *seq;
    Py_ssize_t n;
    PyObject **items;
} Items;

static int items_of(PyObject *value, Items *out, const char *what) {
    out->seq = PySequence_Fast(value, what);
    if (!out->seq) return -1;
    out->n = PySequence_Fast_GET_SIZE(out->seq);
    out->items = PySequence_Fast_ITEMS(out->seq);
    return 0;
}

/* A `(holder, cards)` tuple; UNSUPPORTED for anything else (Python reads it). */
static int pair_of(PyObject *pair, long *h, PyObject **cards) {
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) return UNSUPPORTED;
    *cards = PyTuple_GET_ITEM(pair, 1);
    return small_int(PyTuple_GET_ITEM(pair, 0), h);
}

typedef struct {
    int n;
    u64 caps_ok;
    long caps[MAX_HOLDERS];
    u64 holding[MAX_HOLDERS];
    u64 may[MAX_HOLDERS];
    u64 free_cards;
    u64 removed;
    Bounds bounds;
    Groups groups;
} Problem;

static int holder_ok(const Problem *p, long h) { return h >= 0 && h < p->n; }

/* The live at-least-one facts, into the bounds (`groups_of`'s first loop). */
static int take_constraints(Problem *p, PyObject *constraints) {
    Items items;
    if (items_of(constraints, &items, "constraints must be a sequence")) return -1;
    int status = 0;
    for (Py_ssize_t i = 0; i < items.n && !status; i++) {
        long h;
        PyObject *value;
        u64 cards;
        status = pair_of(items.items[i], &h, &value);
        if (!status) status = wrapped_mask(value, &cards);
        if (status) break;
        if (!holder_ok(p, h)) {
            status = UNSUPPORTED;
            break;
        }
        if (cards & p->holding[h]) continue; /* a known card meets it */
        cards &= p->may[h];
        if (!cards) {
            status = NO_DEAL;
            break;
        }
        Bound *got = find_set(&p->bounds, (int)h, cards);
        if (got)
            got->low = 1;
        else
            status = add_set(&p->bounds, (int)h, cards, 1, popc(cards));
    }
    Py_DECREF(items.seq);
    return status;
}

/* A not-all set met by a holder (`groups_of`'s second loop). */
static int exclude(Problem *p, int h, u64 cards) {
    if (cards & ~p->may[h]) return 0;
    int size = popc(cards);
    Bound *got = find_set(&p->bounds, h, cards);
    if (!got) return add_set(&p->bounds, h, cards, 0, size - 1);
    if (got->high > size - 1) got->high = size - 1;
    return 0;
}

/* One set no holder may complete (a group: `only` is -1), or that holder `only` may not. */
static int bound_set(Problem *p, u64 cards, long only) {
    if (cards & p->removed) return 0;
    u64 placed = cards & ~p->free_cards, rest = cards & p->free_cards;
    long owner = only;
    if (placed) {
        for (int h = 0; h < p->n; h++) {
            if (p->holding[h] & placed) {
                owner = (!(placed & ~p->holding[h]) && (only == -1 || only == h)) ? h : -2;
                break;
            }
        }
        if (owner == -2) return 0;
        if (!rest) return NO_DEAL; /* it holds the whole set */
    }
    long size = popc(rest);
    int from = owner == -1 ? 0 : (int)owner, to = owner == -1 ? p->n : (int)owner + 1;
    for (int h = from; h < to; h++) {
        if (p->caps[h] >= size && !(rest & ~p->may[h])) {
            int status = exclude(p, h, rest);
            if (status) return status;
        }
    }
    return 0;
}

static int take_bounds(Problem *p, PyObject *groups, PyObject *not_all) {
    Items items;
    if (items_of(groups, &items, "groups must be a sequence")) return -1;
    int status = 0;
    for (Py_ssize_t i = 0; i < items.n && !status; i++) {
        u64 cards;
        status = wrapped_mask(items.items[i], &cards);
        if (!status) status = bound_set(p, cards, -1);
    }
    Py_DECREF(items.seq);
    if (status) return status;
    if (items_of(not_all, &items, "not_all must be a sequence")) return -1;
    for (Py_ssize_t i = 0; i < items.n && !status; i++) {
        long h;
        PyObject *value;
        u64 cards;
        status = pair_of(items.items[i], &h, &value);
        if (!status) status = wrapped_mask(value, &cards);
        if (status) break;
        if (!holder_ok(p, h)) {
            status = UNSUPPORTED;
            break;
        }
        status = bound_set(p, cards, h);
    }
    Py_DECREF(items.seq);
    return status;
}

/* The groups of each holder with room (`groups_of`'s last loop); NO_DEAL for sets of one
 * holder that overlap (not the flow's shape). */
static int make_groups(Problem *p) {
    Groups *g = &p->groups;
    g->n_groups = 0;
    g->n_slots = 0;
    for (int h = 0; h < p->n; h++) {
        if (p->caps[h] <= 0) continue;
        int slot = g->n_slots++;
        g->holders[slot] = h;
        g->caps[slot] = (int)p->caps[h];
        u64 covered = 0;
        int wanted = p->bounds.n[h] + 1;
        if (g->n_groups + wanted + g->n_slots > MAX_NODES) return UNSUPPORTED;
        for (int i = 0; i < p->bounds.n[h]; i++) {
            Bound *b = &p->bounds.sets[h][i];
            if (b->cards & covered) return NO_DEAL;
            covered |= b->cards;
            int k = g->n_groups++;
            g->holder[k] = slot;
            g->cards[k] = b->cards;
            g->low[k] = b->low;
            g->high[k] = b->high;
        }
        u64 rest = p->may[h] & ~covered;
        if (rest) {
            int k = g->n_groups++;
            g->holder[k] = slot;
            g->cards[k] = rest;
            g->low[k] = 0;
            g->high[k] = (int)p->caps[h];
        }
    }
    /* Holders without room still count as nodes in no graph; all slots are nodes. */
    if (g->n_groups + g->n_slots > MAX_NODES) return UNSUPPORTED;
    return 0;
}

static int read_holders(Problem *p, PyObject *counts, PyObject *holding, PyObject *lacking) {
    Items c, hold, lack;
    if (items_of(counts, &c, "counts must be a sequence")) return -1;
    if (items_of(holding, &hold, "holding must be a sequence")) {
        Py_DECREF(c.seq);
        return -1;
    }
    if (items_of(lacking, &lack, "lacking must be a sequence")) {
        Py_DECREF(c.seq);
        Py_DECREF(hold.seq);
        return -1;
    }
    int status = 0;
    if (c.n > MAX_HOLDERS || hold.n < c.n || lack.n < c.n) status = UNSUPPORTED;
    p->n = (int)c.n;
    for (Py_ssize_t h = 0; h < c.n && !status; h++) {
        long count;
        u64 held, lacks;
        if (small_int(c.items[h], &count)) {
            status = -1;
            break;
        }
        status = exact_mask(hold.items[h], &held);
        if (status) break;
        status = wrapped_mask(lack.items[h], &lacks);
        if (status) break;
        p->holding[h] = held;
        p->caps[h] = count - popc(held);
        if (p->caps[h] < 0) {
            status = NO_DEAL;
            break;
        }
        p->may[h] = p->caps[h] ? p->free_cards & ~lacks : 0;
        p->bounds.n[h] = 0;
    }
    Py_DECREF(c.seq);
    Py_DECREF(hold.seq);
    Py_DECREF(lack.seq);
    return status;
}

static PyObject *possible_from_facts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "possible_from_facts takes 8 arguments");
        return NULL;
    }
    Problem *p = PyMem_Malloc(sizeof(Problem));
    if (!p) return PyErr_NoMemory();
    u64 result[MAX_HOLDERS];
    int status = exact_mask(args[3], &p->free_cards);
    if (!status) status = exact_mask(args[4], &p->removed);
    if (!status) status = read_holders(p, args[0], args[1], args[2]);
    if (!status) status = take_constraints(p, args[5]);
    if (!status) status = take_bounds(p, args[6], args[7]);
    if (!status) status = make_groups(p);
    if (!status) status = possible_by_flow(&p->groups, p->free_cards, result, p->n);
    int n = p->n;
    PyMem_Free(p);
    if (status < 0) return python_answers();
    if (status == UNSUPPORTED) Py_RETURN_NOTIMPLEMENTED;
    if (status == NO_DEAL) Py_RETURN_NONE;
    PyObject *found = PyList_New(n);
    if (!found) return NULL;
    for (int h = 0; h < n; h++) {
        PyObject *mask = PyLong_FromUnsignedLongLong(result[h]);
        if (!mask) {
            Py_DECREF(found);
            return NULL;
        }
        PyList_SET_ITEM(found, h, mask);
    }
    return found;
}

/* ---- the reduction (see problem.py: reduce_facts) ---- */

/* Facts that contradict each other: Python redoes the reduction and words the error. */
#define CONTRADICTION 3

typedef struct {
    int h;
    u64 cards;
} Pair;

typedef struct {
    int nh;
    long caps[MAX_HOLDERS];
    u64 known[MAX_HOLDERS];
    u64 may[MAX_HOLDERS];
    u64 free_cards;
    Pair *cons;
    Py_ssize_t n_cons;
    Pair *bound; /* (cards, holder or -1) */
    Py_ssize_t n_bound;
} Reduction;

static int place(Reduction *r, u64 cards, int h) {
    r->known[h] |= cards;
    r->free_cards &= ~cards;
    r->caps[h] -= popc(cards);
    if (r->caps[h] < 0) return CONTRADICTION;
    for (int g = 0; g < r->nh; g++) r->may[g] &= ~cards;
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < r->n_cons; i++) {
        Pair c = r->cons[i];
        if (c.cards & cards) {
            if (c.h == h) continue;
            c.cards &= ~cards;
            if (!c.cards) return CONTRADICTION;
        }
        r->cons[kept++] = c;
    }
    r->n_cons = kept;
    return 0;
}

/* The holder known to have all of `cards` (not empty), or -1. */
static int owner_of(const Reduction *r, u64 cards) {
    u64 low = LOW_BIT(cards);
    for (int h = 0; h < r->nh; h++)
        if (r->known[h] & low) return (cards & ~r->known[h]) ? -1 : h;
    return -1;
}

/* The holders that could still hold every card of a group, as a mask of holders. */
static u64 candidates(const Reduction *r, u64 placed, int holder) {
    if (!placed) {
        if (holder >= 0) return BIT(holder);
        return r->nh == 64 ? ~(u64)0 : BIT(r->nh) - 1;
    }
    int h = owner_of(r, placed);
    return (h < 0 || (holder >= 0 && h != holder)) ? 0 : BIT(h);
}

/* The groups' unit rule; 1 if it struck a card from a holder, or CONTRADICTION. */
static int group_step(Reduction *r) {
    int changed = 0;
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < r->n_bound; i++) {
        Pair b = r->bound[i];
        u64 rest = b.cards & r->free_cards;
        if (rest & (rest - 1)) {
            r->bound[kept++] = b;
            continue;
        }
        u64 placed = b.cards & ~r->free_cards;
        u64 holders = candidates(r, placed, b.h);
        if (!rest) {
            if (placed && holders) return -CONTRADICTION;
            continue;
        }
        while (holders) {
            int g = low_index(holders);
            holders &= holders - 1;
            if (r->may[g] & rest) {
                r->may[g] &= ~rest;
                changed = 1;
            }
        }
    }
    r->n_bound = kept;
    return changed;
}

static int propagate(Reduction *r) {
    for (;;) {
        u64 once = 0, twice = 0;
        for (int h = 0; h < r->nh; h++) {
            twice |= once & r->may[h];
            once |= r->may[h];
        }
        if (r->free_cards & ~once) return CONTRADICTION;
        u64 single = r->free_cards & ~twice;
        if (single) {
            for (int h = 0; h < r->nh; h++) {
                if (r->may[h] & single) {
                    int status = place(r, r->may[h] & single, h);
                    if (status) return status;
                }
            }
            continue;
        }
        int progress = 0;
        for (int h = 0; h < r->nh; h++) {
            long n_may = popc(r->may[h]);
            if (n_may < r->caps[h]) return CONTRADICTION;
            if (r->caps[h] == 0 && r->may[h]) {
                r->may[h] = 0;
                progress = 1;
                break;
            }
            if (n_may == r->caps[h] && n_may) {
                int status = place(r, r->may[h], h);
                if (status) return status;
                progress = 1;
                break;
            }
        }
        if (progress) continue;
        if (r->n_bound) {
            int changed = group_step(r);
            if (changed < 0) return -changed;
            if (changed) continue;
        }
        int unit_h = -1;
        u64 unit = 0;
        for (Py_ssize_t i = 0; i < r->n_cons; i++) {
            u64 live = r->cons[i].cards & r->may[r->cons[i].h];
            if (!live) return CONTRADICTION;
            if (unit_h < 0 && !(live & (live - 1))) {
                unit = live;
                unit_h = r->cons[i].h;
            }
            r->cons[i].cards = live;
        }
        if (unit_h < 0) return 0;
        int status = place(r, unit, unit_h);
        if (status) return status;
    }
}

static PyObject *masks_tuple(const u64 *masks, int n) {
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *m = PyLong_FromUnsignedLongLong(masks[i]);
        if (!m) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, m);
    }
    return out;
}

static PyObject *pairs_tuple(const Pair *pairs, Py_ssize_t n) {
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = Py_BuildValue("(iK)", pairs[i].h, (unsigned long long)pairs[i].cards);
        if (!pair) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, i, pair);
    }
    return out;
}

/* Reads `(holder, cards)` pairs (or, with `groups`, bare card masks bound for every
 * holder) into `out`, skipping any with a removed card when `removed` is given. */
static int read_pairs(PyObject *value, int nh, int groups, u64 removed, int skip_removed,
                      Pair *out, Py_ssize_t *n_out) {
    Items items;
    if (items_of(value, &items, "expected a sequence of facts")) return -1;
    int status = 0;
    for (Py_ssize_t i = 0; i < items.n && !status; i++) {
        long h = -1;
        PyObject *cards_obj = items.items[i];
        u64 cards;
        if (!groups) status = pair_of(items.items[i], &h, &cards_obj);
        if (!status) status = exact_mask(cards_obj, &cards);
        if (status) break;
        if (!groups && (h < 0 || h >= nh)) {
            status = UNSUPPORTED;
            break;
        }
        if (skip_removed && (cards & removed)) continue;
        out[*n_out].h = (int)h;
        out[*n_out].cards = cards;
        (*n_out)++;
    }
    Py_DECREF(items.seq);
    return status;
}

static Py_ssize_t length_of(PyObject *value) {
    Py_ssize_t n = PyObject_Length(value);
    if (n < 0) PyErr_Clear();
    return n;
}

static PyObject *reduce_facts(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "reduce_facts takes 8 arguments");
        return NULL;
    }
    long n_cards;
    if (small_int(args[0], &n_cards)) return python_answers();
    Py_ssize_t n_constraints = length_of(args[5]);
    Py_ssize_t n_bounds = length_of(args[6]) + length_of(args[7]);
    if (n_cards < 0 || n_cards > 64 || n_constraints < 0 || n_bounds < 0)
        Py_RETURN_NOTIMPLEMENTED;
    Reduction *r = PyMem_Malloc(sizeof(Reduction));
    Pair *pairs = PyMem_Malloc(sizeof(Pair) * (size_t)(n_constraints + n_bounds + 1));
    if (!r || !pairs) {
        PyMem_Free(r);
        PyMem_Free(pairs);
        return PyErr_NoMemory();
    }
    r->cons = pairs;
    r->bound = pairs + n_constraints;
    r->n_cons = r->n_bound = 0;
    u64 removed = 0;
    Items c = {NULL, 0, NULL}, hold = {NULL, 0, NULL}, lack = {NULL, 0, NULL};
    int status = exact_mask(args[4], &removed);
    if (!status) status = items_of(args[1], &c, "counts must be a sequence");
    if (!status) status = items_of(args[2], &hold, "holding must be a sequence");
    if (!status) status = items_of(args[3], &lack, "lacking must be a sequence");
    if (!status && (c.n > MAX_HOLDERS || hold.n != c.n || lack.n != c.n)) status = UNSUPPORTED;
    if (!status) {
        r->nh = (int)c.n;
        r->free_cards = (n_cards == 64 ? ~(u64)0 : BIT(n_cards) - 1) & ~removed;
        for (int h = 0; h < r->nh && !status; h++) {
            if (small_int(c.items[h], &r->caps[h])) status = -1;
            if (!status) status = exact_mask(hold.items[h], &r->known[h]);
        }
        for (int h = 0; h < r->nh && !status; h++) {
            r->free_cards &= ~r->known[h];
            r->caps[h] -= popc(r->known[h]);
            if (r->caps[h] < 0) status = CONTRADICTION;
        }
        for (int h = 0; h < r->nh && !status; h++) {
            u64 lacks = 0;
            status = wrapped_mask(lack.items[h], &lacks);
            r->may[h] = r->caps[h] > 0 ? r->free_cards & ~lacks : 0;
        }
    }
    Py_XDECREF(c.seq);
    Py_XDECREF(hold.seq);
    Py_XDECREF(lack.seq);
    if (!status) status = read_pairs(args[5], r->nh, 0, 0, 0, r->cons, &r->n_cons);
    if (!status) {
        Py_ssize_t kept = 0;
        for (Py_ssize_t i = 0; i < r->n_cons && !status; i++) {
            Pair p = r->cons[i];
            if (p.cards & r->known[p.h]) continue;
            p.cards &= r->may[p.h];
            if (!p.cards) status = CONTRADICTION;
            r->cons[kept++] = p;
        }
        r->n_cons = kept;
    }
    if (!status) status = read_pairs(args[6], r->nh, 1, removed, 1, r->bound, &r->n_bound);
    if (!status) status = read_pairs(args[7], r->nh, 0, removed, 1, r->bound, &r->n_bound);
    if (!status) status = propagate(r);
    PyObject *result = NULL;
    if (!status) {
        /* The live not-all sets, each with the holders it binds. */
        Pair *exclusions = PyMem_Malloc(sizeof(Pair) * (size_t)(r->n_bound * r->nh + 1));
        Py_ssize_t n_ex = 0;
        if (!exclusions) {
            PyMem_Free(r);
            PyMem_Free(pairs);
            return PyErr_NoMemory();
        }
        for (Py_ssize_t i = 0; i < r->n_bound; i++) {
            u64 rest = r->bound[i].cards & r->free_cards;
            if (!(rest & (rest - 1))) continue;
            u64 placed = r->bound[i].cards & ~r->free_cards;
            long size = popc(rest);
            u64 holders = candidates(r, placed, r->bound[i].h);
            while (holders) {
                int h = low_index(holders);
                holders &= holders - 1;
                if (!(rest & ~r->may[h]) && r->caps[h] >= size) {
                    exclusions[n_ex].h = h;
                    exclusions[n_ex].cards = rest;
                    n_ex++;
                }
            }
        }
        PyObject *caps = PyTuple_New(r->nh);
        if (caps) {
            for (int h = 0; h < r->nh; h++) {
                PyObject *cap = PyLong_FromLong(r->caps[h]);
                if (!cap) {
                    Py_CLEAR(caps);
                    break;
                }
                PyTuple_SET_ITEM(caps, h, cap);
            }
        }
        PyObject *known = masks_tuple(r->known, r->nh);
        PyObject *may = masks_tuple(r->may, r->nh);
        PyObject *cons = pairs_tuple(r->cons, r->n_cons);
        PyObject *ex = pairs_tuple(exclusions, n_ex);
        if (caps && known && may && cons && ex)
            result = Py_BuildValue("(OOOKKOO)", caps, known, may,
                                   (unsigned long long)r->free_cards,
                                   (unsigned long long)removed, cons, ex);
        Py_XDECREF(caps);
        Py_XDECREF(known);
        Py_XDECREF(may);
        Py_XDECREF(cons);
        Py_XDECREF(ex);
        PyMem_Free(exclusions);
    }
    PyMem_Free(r);
    PyMem_Free(pairs);
    if (status < 0) return python_answers();
    if (status) Py_RETURN_NOTIMPLEMENTED;
    return result;
}

/* ---- counting (see counting.py: _Packing, _items, _forward, _backward) ---- */

#if defined(__SIZEOF_INT128__)

typedef unsigned __int128 u128;

/* Limits of the tables; past them `count_deals` returns NotImplemented (Python counts). */
#define COUNT_MAX_STATES (1 << 18)        /* dense index space of the capacity states */
#define COUNT_MAX_ENTRIES (1 << 21)       /* states the forward pass keeps, all steps */
#define COUNT_MAX_WORK ((u64)1 << 28)     /* state-option visits of the forward pass */
#define COUNT_MAX_LEAVES ((u64)1 << 20)   /* assignments enumerated, all blocks */
#define COUNT_MAX_OPTIONS ((u64)1 << 16)  /* options of one item */
#define COUNT_MAX_TALLY ((u64)1 << 22)    /* a block's tally entries (options x cards x holders) */
#define COUNT_MAX_FACTS 256               /* at-least-one and not-all facts */

/* binom[n][k] for n <= 64: C(64, 32) < 2**63, so every entry fits. */
static u64 binom[65][65];

static void make_binom(void) {
    for (int n = 0; n <= 64; n++) {
        binom[n][0] = binom[n][n] = 1;
        for (int k = 1; k < n; k++) binom[n][k] = binom[n - 1][k - 1] + binom[n - 1][k];
    }
}

/* ---- memory: one arena per call, freed at once ---- */

#define CHUNK_SIZE ((size_t)1 << 16)
#define CHUNK_HEADER ((size_t)32) /* keeps the data 16-aligned, as u128 wants */

typedef struct Chunk {
    struct Chunk *prev;
    size_t size, used;
} Chunk;

typedef struct {
    Chunk *last;
} Arena;

static void *arena_alloc(Arena *arena, size_t n) {
    n = (n + 15) & ~(size_t)15;
    Chunk *c = arena->last;
    if (!c || c->size - c->used < n) {
        size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;
        c = PyMem_Malloc(CHUNK_HEADER + size);
        if (!c) return NULL;
        c->prev = arena->last;
        c->size = size;
        c->used = 0;
        arena->last = c;
    }
    void *p = (char *)c + CHUNK_HEADER + c->used;
    c->used += n;
    return p;
}

static void *arena_zeros(Arena *arena, size_t n) {
    void *p = arena_alloc(arena, n);
    if (p) memset(p, 0, n);
    return p;
}

static void arena_free(Arena *arena) {
    while (arena->last) {
        Chunk *prev = arena->last->prev;
        PyMem_Free(arena->last);
        arena->last = prev;
    }
}

/* Packed deltas (never 0) to small indices: open addressing, 0 marks a free slot. */
typedef struct {
    u64 *keys;
    int *values;
    u64 mask;
    int shift;
} DeltaMap;

static int map_init(Arena *arena, DeltaMap *m, u64 entries) {
    int bits = 1;
    while (((u64)1 << bits) < 2 * entries) bits++;
    m->mask = ((u64)1 << bits) - 1;
    m->shift = 64 - bits;
    m->keys = arena_zeros(arena, sizeof(u64) << bits);
    m->values = arena_alloc(arena, sizeof(int) << bits);
    return m->keys && m->values ? 0 : -1;
}

/* The slot of `key`: where it is, or the free slot where it goes. */
static u64 map_slot(const DeltaMap *m, u64 key) {
    u64 i = (key * 0x9E3779B97F4A7C15ULL) >> m->shift;
    while (m->keys[i] && m->keys[i] != key) i = (i + 1) & m->mask;
    return i;
}

static int map_get(const DeltaMap *m, u64 key) {
    u64 i = map_slot(m, key);
    return m->keys[i] ? m->values[i] : -1;
}

/* ---- the problem, its items and the capacity states ---- */

/* A step of the passes: a block (its assignments grouped by usage) or a class of
 * interchangeable cards (its ways to share them among its holders). */
typedef struct {
    int n_opts;
    u64 *delta;    /* per option: the capacities it takes, packed */
    int64_t *step; /* per option: the same as an offset of the dense state index */
    u128 *weight;  /* per option: its ways to place the item's cards */
    /* Per option: the sum over the states before the item of forward * backward after
     * the option, i.e. the deals through the option over its weight. */
    u128 *through;
    DeltaMap map; /* delta -> option, for the last item (and a block's grouping) */
    int n_cards;  /* a block's cards, in order; 0 for a class */
    int *cards;
    uint32_t *tally; /* a block's: per option, card, active holder: assignments there */
    u64 class_cards; /* a class's cards */
    u128 *column;    /* a class's: per option and active holder, the ways with one given
                        card of the class there (weight * n / k) */
} Item;

typedef struct {
    int nh, n_active;
    int active[MAX_HOLDERS];   /* per position: the holder */
    int position[MAX_HOLDERS]; /* per holder: its position, or -1 without room */
    long caps[MAX_HOLDERS];    /* per position */
    u64 may[MAX_HOLDERS];      /* per position */
    u64 free_cards;
    u64 unit[MAX_HOLDERS];   /* per position: one card there, packed */
    int64_t stride[MAX_HOLDERS]; /* per position: one card there, as an index offset */
    u64 start, goal;
    int64_t start_index, n_states;
    Item items[64];
    int n_items;
    u64 leaves;
    Arena arena;
} Counter;

/* The multinomial of `counts` (n of them), or 0 past 128 bits (never for options
 * within the capacities once `count_deals` has bounded the whole deal). */
static u128 multinomial(const long *counts, int n) {
    u128 ways = 1;
    long total = 0;
    for (int j = 0; j < n; j++) {
        total += counts[j];
        if (__builtin_mul_overflow(ways, (u128)binom[total][counts[j]], &ways)) return 0;
    }
    return ways;
}

/* Capacities packed one field per active holder with a guard bit on top (`_Packing`),
 * and a dense index over all the holders but the one with the most room: within one
 * step of the passes every state has the same number of cards left, so that holder's
 * field follows from the others. */
static int make_states(Counter *k) {
    long largest = 0;
    int dropped = 0;
    for (int a = 0; a < k->n_active; a++) {
        if (k->caps[a] > largest) {
            largest = k->caps[a];
            dropped = a;
        }
    }
    int width = 1;
    while ((1L << width) <= largest) width++;
    width++; /* the guard */
    if (width * k->n_active > 64) return UNSUPPORTED;
    u64 guard = (u64)1 << (width - 1);
    int64_t states = 1;
    k->start = k->goal = 0;
    k->start_index = 0;
    for (int a = 0; a < k->n_active; a++) {
        k->unit[a] = (u64)1 << (width * a);
        k->start += ((u64)k->caps[a] + guard) << (width * a);
        k->goal += guard << (width * a);
        if (a == dropped) {
            k->stride[a] = 0;
            continue;
        }
        k->stride[a] = states;
        k->start_index += k->caps[a] * states;
        states *= k->caps[a] + 1;
        if (states > COUNT_MAX_STATES) return UNSUPPORTED;
    }
    k->n_states = states;
    return 0;
}

typedef struct {
    Counter *k;
    Item *item;
    int n;                /* cards */
    int allowed[64][MAX_HOLDERS];
    int n_allowed[64];
    int n_checks, n_bans;
    int check_at[COUNT_MAX_FACTS], ban_at[COUNT_MAX_FACTS]; /* active positions */
    u64 checks[COUNT_MAX_FACTS], bans[COUNT_MAX_FACTS];     /* masks over its positions */
    int choice[64];
    u64 held[MAX_HOLDERS];
    long used[MAX_HOLDERS];
    u64 bound; /* groups room */
} Enumeration;

/* Every assignment of the block's cards from position `p` on, grouped by usage. */
static int enumerate(Enumeration *e, int p, u64 delta) {
    Counter *k = e->k;
    Item *item = e->item;
    if (p == e->n) {
        for (int i = 0; i < e->n_checks; i++)
            if (!(e->held[e->check_at[i]] & e->checks[i])) return 0;
        for (int i = 0; i < e->n_bans; i++)
            if ((e->held[e->ban_at[i]] & e->bans[i]) == e->bans[i]) return 0;
        u64 slot = map_slot(&item->map, delta);
        int g;
        if (item->map.keys[slot]) {
            g = item->map.values[slot];
        } else {
            if ((u64)item->n_opts >= e->bound) return UNSUPPORTED; /* cannot happen */
            g = item->n_opts++;
            item->map.keys[slot] = delta;
            item->map.values[slot] = g;
            item->delta[g] = delta;
            int64_t step = 0;
            for (int a = 0; a < k->n_active; a++) step += e->used[a] * k->stride[a];
            item->step[g] = step;
            item->weight[g] = 0;
            memset(item->tally + (size_t)g * e->n * k->n_active, 0,
                   sizeof(uint32_t) * (size_t)e->n * k->n_active);
        }
        item->weight[g]++;
        uint32_t *row = item->tally + (size_t)g * e->n * k->n_active;
        for (int q = 0; q < e->n; q++) row[q * k->n_active + e->choice[q]]++;
        return 0;
    }
    for (int i = 0; i < e->n_allowed[p]; i++) {
        int a = e->allowed[p][i];
        if (e->used[a] >= k->caps[a]) continue;
        e->choice[p] = a;
        e->used[a]++;
        e->held[a] |= BIT(p);
        int status = enumerate(e, p + 1, delta + k->unit[a]);
        e->used[a]--;
        e->held[a] &= ~BIT(p);
        if (status) return status;
    }
    return 0;
}

/* The block of cards `cards` with the facts `pairs` (at-least-one ones first) that lie
 * in it; NO_DEAL where none of its assignments fits. */
static int make_block(Counter *k, u64 cards, const Pair *pairs, int n_pairs, int n_cons) {
    Enumeration *e = PyMem_Malloc(sizeof(Enumeration));
    if (!e) return -1;
    Item *item = &k->items[k->n_items++];
    memset(item, 0, sizeof(Item));
    e->k = k;
    e->item = item;
    e->n = popc(cards);
    item->n_cards = e->n;
    item->cards = arena_alloc(&k->arena, sizeof(int) * (size_t)e->n);
    int status = item->cards ? 0 : -1;
    int pos_of[64];
    u64 leaves = 1;
    u64 rest = cards;
    for (int p = 0; p < e->n && !status; p++) {
        int c = low_index(rest);
        rest &= rest - 1;
        item->cards[p] = c;
        pos_of[c] = p;
        e->n_allowed[p] = 0;
        for (int a = 0; a < k->n_active; a++)
            if (k->may[a] & BIT(c)) e->allowed[p][e->n_allowed[p]++] = a;
        if (!e->n_allowed[p]) status = NO_DEAL;
        leaves *= (u64)e->n_allowed[p];
        if (leaves > COUNT_MAX_LEAVES) status = UNSUPPORTED;
    }
    k->leaves += leaves;
    if (!status && k->leaves > COUNT_MAX_LEAVES) status = UNSUPPORTED;
    e->n_checks = e->n_bans = 0;
    for (int i = 0; i < n_pairs && !status; i++) {
        if (!(pairs[i].cards & cards)) continue;
        u64 local = 0, m = pairs[i].cards;
        while (m) {
            local |= BIT(pos_of[low_index(m)]);
            m &= m - 1;
        }
        int a = k->position[pairs[i].h];
        if (i < n_cons) {
            if (a < 0) status = NO_DEAL; /* a holder without room gets none of them */
            e->check_at[e->n_checks] = a;
            e->checks[e->n_checks++] = local;
        } else if (a >= 0) { /* a holder without room never gets all of them */
            e->ban_at[e->n_bans] = a;
            e->bans[e->n_bans++] = local;
        }
    }
    /* Room for every usage: at most the leaves, and at most the usages within the caps. */
    u64 usages = 1;
    for (int a = 0; a < k->n_active && usages < leaves; a++) {
        long most = k->caps[a] < e->n ? k->caps[a] : e->n;
        usages *= (u64)most + 1;
    }
    e->bound = usages < leaves ? usages : leaves;
    if (!status && e->bound * (u64)e->n * (u64)k->n_active > COUNT_MAX_TALLY) status = UNSUPPORTED;
    if (!status) {
        size_t g = (size_t)e->bound;
        item->delta = arena_alloc(&k->arena, sizeof(u64) * g);
        item->step = arena_alloc(&k->arena, sizeof(int64_t) * g);
        item->weight = arena_alloc(&k->arena, sizeof(u128) * g);
        item->tally = arena_alloc(&k->arena, sizeof(uint32_t) * g * (size_t)e->n * k->n_active);
        if (!item->delta || !item->step || !item->weight || !item->tally) status = -1;
        if (!status && map_init(&k->arena, &item->map, e->bound)) status = -1;
    }
    if (!status) {
        for (int a = 0; a < k->n_active; a++) {
            e->held[a] = 0;
            e->used[a] = 0;
        }
        status = enumerate(e, 0, 0);
    }
    if (!status && !item->n_opts) status = NO_DEAL;
    PyMem_Free(e);
    return status;
}

typedef struct {
    Counter *k;
    Item *item;
    int r;                   /* the class's holders */
    int holders[MAX_HOLDERS]; /* their positions */
    long most[MAX_HOLDERS];   /* their caps, at most k */
    long counts[MAX_HOLDERS];
    long k_cards;
} Spread;

/* Every way to give `left` cards to the class's holders from `j` on (`_spreads`). */
static int spread(Spread *s, int j, long left) {
    if (j == s->r - 1) {
        if (left > s->most[j]) return 0;
        s->counts[j] = left;
        Counter *k = s->k;
        Item *item = s->item;
        int o = item->n_opts++;
        u64 delta = 0;
        int64_t step = 0;
        for (int i = 0; i < s->r; i++) {
            delta += (u64)s->counts[i] * k->unit[s->holders[i]];
            step += s->counts[i] * k->stride[s->holders[i]];
        }
        item->delta[o] = delta;
        item->step[o] = step;
        item->weight[o] = multinomial(s->counts, s->r);
        if (!item->weight[o]) return UNSUPPORTED;
        u128 *column = item->column + (size_t)o * k->n_active;
        for (int a = 0; a < k->n_active; a++) column[a] = 0;
        for (int i = 0; i < s->r; i++) {
            if (!s->counts[i]) continue;
            s->counts[i]--; /* one given card there: the others spread over k - 1 */
            column[s->holders[i]] = multinomial(s->counts, s->r);
            s->counts[i]++;
            if (!column[s->holders[i]]) return UNSUPPORTED;
        }
        u64 slot = map_slot(&item->map, delta);
        item->map.keys[slot] = delta;
        item->map.values[slot] = o;
        return 0;
    }
    long room = 0;
    for (int i = j + 1; i < s->r; i++) room += s->most[i];
    long from = left - room > 0 ? left - room : 0;
    long to = left < s->most[j] ? left : s->most[j];
    for (long n = from; n <= to; n++) {
        s->counts[j] = n;
        int status = spread(s, j + 1, left - n);
        if (status) return status;
    }
    return 0;
}

/* The class of cards `cards`, allowed with the active holders of mask `allowed`. */
static int make_class(Counter *k, u64 cards, u64 allowed) {
    Spread s;
    Item *item = &k->items[k->n_items++];
    memset(item, 0, sizeof(Item));
    s.k = k;
    s.item = item;
    s.k_cards = popc(cards);
    s.r = 0;
    /* The number of options: ways[t], the spreads of t cards over the holders so far
     * (past the limit, only that it is past). */
    u64 ways[65] = {1};
    for (int a = 0; a < k->n_active; a++) {
        if (!(allowed & BIT(a))) continue;
        s.holders[s.r] = a;
        long most = s.most[s.r] = k->caps[a] < s.k_cards ? k->caps[a] : s.k_cards;
        for (long t = s.k_cards; t > 0; t--)
            for (long n = 1; n <= most && n <= t; n++)
                if ((ways[t] += ways[t - n]) > COUNT_MAX_OPTIONS) ways[t] = COUNT_MAX_OPTIONS + 1;
        s.r++;
    }
    u64 options = ways[s.k_cards];
    if (options > COUNT_MAX_OPTIONS) return UNSUPPORTED;
    if (!options) return NO_DEAL;
    item->class_cards = cards;
    size_t n = (size_t)options;
    item->delta = arena_alloc(&k->arena, sizeof(u64) * n);
    item->step = arena_alloc(&k->arena, sizeof(int64_t) * n);
    item->weight = arena_alloc(&k->arena, sizeof(u128) * n);
    item->column = arena_alloc(&k->arena, sizeof(u128) * n * (size_t)k->n_active);
    if (!item->delta || !item->step || !item->weight || !item->column) return -1;
    if (map_init(&k->arena, &item->map, options)) return -1;
    int status = spread(&s, 0, s.k_cards);
    if (!status && !item->n_opts) status = NO_DEAL;
    return status;
}

/* The blocks (cards tied by the facts, `decompose`) and the classes of the other cards. */
static int make_items(Counter *k, const Pair *pairs, int n_pairs, int n_cons) {
    u64 blocks[64];
    int n_blocks = 0;
    for (int i = 0; i < n_pairs; i++) {
        u64 joined = pairs[i].cards;
        int kept = 0;
        for (int b = 0; b < n_blocks; b++) {
            if (blocks[b] & joined)
                joined |= blocks[b];
            else
                blocks[kept++] = blocks[b];
        }
        blocks[kept++] = joined;
        n_blocks = kept;
    }
    u64 in_blocks = 0;
    for (int b = 0; b < n_blocks; b++) {
        in_blocks |= blocks[b];
        int status = make_block(k, blocks[b], pairs, n_pairs, n_cons);
        if (status) return status;
    }
    /* Per card outside the blocks, its active holders; a class per set of holders. */
    u64 rest = k->free_cards & ~in_blocks;
    while (rest) {
        int c = low_index(rest);
        u64 allowed = 0;
        for (int a = 0; a < k->n_active; a++)
            if (k->may[a] & BIT(c)) allowed |= BIT(a);
        if (!allowed) return UNSUPPORTED; /* Python's classes leave such a card out */
        u64 cards = 0;
        for (u64 more = rest; more; more &= more - 1) {
            int d = low_index(more);
            u64 also = 0;
            for (int a = 0; a < k->n_active; a++)
                if (k->may[a] & BIT(d)) also |= BIT(a);
            if (also == allowed) cards |= BIT(d);
        }
        rest &= ~cards;
        int status = make_class(k, cards, allowed);
        if (status) return status;
    }
    /* The last step is one lookup per state (only the goal finishes a deal): the item
     * with the most options goes there. */
    int last = 0;
    for (int i = 1; i < k->n_items; i++)
        if (k->items[i].n_opts > k->items[last].n_opts) last = i;
    if (k->n_items) {
        Item t = k->items[last];
        k->items[last] = k->items[k->n_items - 1];
        k->items[k->n_items - 1] = t;
    }
    return 0;
}

/* ---- the passes ---- */

/* The states the forward pass reaches, all steps one after the other: step i's are
 * entries first[i] .. first[i + 1] - 1. */
typedef struct {
    u64 *state;
    int64_t *index;
    u128 *ways;
    size_t n, room;
    size_t first[65];
} Reached;

static int reached_room(Reached *r, size_t more) {
    if (r->n + more <= r->room) return 0;
    size_t room = r->room ? r->room : 256;
    while (room < r->n + more) room *= 2;
    u64 *state = PyMem_Realloc(r->state, sizeof(u64) * room);
    if (state) r->state = state;
    int64_t *index = PyMem_Realloc(r->index, sizeof(int64_t) * room);
    if (index) r->index = index;
    u128 *ways = PyMem_Realloc(r->ways, sizeof(u128) * room);
    if (ways) r->ways = ways;
    if (!state || !index || !ways) return -1;
    r->room = room;
    return 0;
}

/* The forward pass over all items but the last, then the deals (the last item's option
 * that reaches the goal from each state); `*total` gets them. */
static int forward(Counter *k, Reached *r, int *pos, u128 *total) {
    u64 work = 0;
    r->n = 0;
    if (reached_room(r, 1)) return -1;
    r->state[0] = k->start;
    r->index[0] = k->start_index;
    r->ways[0] = 1;
    r->n = 1;
    r->first[0] = 0;
    u64 goal = k->goal;
    for (int i = 0; i < k->n_items - 1; i++) {
        const Item *item = &k->items[i];
        size_t from = r->first[i], to = r->n;
        r->first[i + 1] = to;
        u64 most = (u64)(to - from) * (u64)item->n_opts;
        work += most;
        if (work > COUNT_MAX_WORK) return UNSUPPORTED;
        if (most > (u64)k->n_states) most = (u64)k->n_states;
        if (r->n + most > COUNT_MAX_ENTRIES) return UNSUPPORTED;
        if (reached_room(r, (size_t)most)) return -1;
        for (size_t e = from; e < to; e++) {
            u64 x = r->state[e];
            int64_t ix = r->index[e];
            u128 f = r->ways[e];
            for (int o = 0; o < item->n_opts; o++) {
                u64 y = x - item->delta[o];
                if ((y & goal) != goal) continue;
                int64_t j = ix - item->step[o];
                u128 v = f * item->weight[o];
                int p = pos[j];
                if (p) {
                    r->ways[p - 1] += v;
                } else {
                    size_t n = r->n++;
                    r->state[n] = y;
                    r->index[n] = j;
                    r->ways[n] = v;
                    pos[j] = (int)n + 1;
                }
            }
        }
        for (size_t e = to; e < r->n; e++) pos[r->index[e]] = 0;
    }
    const Item *last = &k->items[k->n_items - 1];
    size_t from = r->first[k->n_items - 1];
    r->first[k->n_items] = r->n;
    u128 found = 0;
    for (size_t e = from; e < r->n; e++) {
        int o = map_get(&last->map, r->state[e] - goal);
        if (o >= 0) found += r->ways[e] * last->weight[o];
    }
    *total = found;
    return 0;
}

/* The backward pass: per item and option, `through` (see Item). */
static void backward(Counter *k, const Reached *r, u128 *later, u128 *here) {
    int n = k->n_items;
    u64 goal = k->goal;
    for (int i = 0; i < n; i++)
        for (int o = 0; o < k->items[i].n_opts; o++) k->items[i].through[o] = 0;
    /* The last item: from each state, the one option to the goal (one way on from it). */
    const Item *last = &k->items[n - 1];
    for (size_t e = r->first[n - 1]; e < r->first[n]; e++) {
        int o = map_get(&last->map, r->state[e] - goal);
        if (o >= 0) {
            last->through[o] += r->ways[e];
            later[r->index[e]] = last->weight[o];
        }
    }
    for (int i = n - 2; i >= 0; i--) {
        const Item *item = &k->items[i];
        for (size_t e = r->first[i]; e < r->first[i + 1]; e++) {
            u64 x = r->state[e];
            int64_t ix = r->index[e];
            u128 f = r->ways[e], ways = 0;
            for (int o = 0; o < item->n_opts; o++) {
                u64 y = x - item->delta[o];
                if ((y & goal) != goal) continue;
                u128 rest = later[ix - item->step[o]];
                if (rest) {
                    ways += item->weight[o] * rest;
                    item->through[o] += f * rest;
                }
            }
            here[ix] = ways;
        }
        for (size_t e = r->first[i + 1]; e < r->first[i + 2]; e++) later[r->index[e]] = 0;
        u128 *t = later;
        later = here;
        here = t;
    }
}

/* Per free card (in order) and active holder: the deals that put it there. */
static void tally_cards(const Counter *k, u128 *counts) {
    int na = k->n_active;
    for (int i = 0; i < k->n_items; i++) {
        const Item *item = &k->items[i];
        if (item->n_cards) {
            for (int o = 0; o < item->n_opts; o++) {
                u128 z = item->through[o];
                if (!z) continue;
                const uint32_t *row = item->tally + (size_t)o * item->n_cards * na;
                for (int q = 0; q < item->n_cards; q++) {
                    u128 *into = counts + (size_t)popc(k->free_cards & (BIT(item->cards[q]) - 1)) * na;
                    for (int a = 0; a < na; a++) into[a] += z * row[q * na + a];
                }
            }
            continue;
        }
        u128 shared[MAX_HOLDERS];
        for (int a = 0; a < na; a++) shared[a] = 0;
        for (int o = 0; o < item->n_opts; o++) {
            u128 z = item->through[o];
            if (!z) continue;
            const u128 *column = item->column + (size_t)o * na;
            for (int a = 0; a < na; a++) shared[a] += z * column[a];
        }
        for (u64 rest = item->class_cards; rest; rest &= rest - 1) {
            u128 *into = counts + (size_t)popc(k->free_cards & (LOW_BIT(rest) - 1)) * na;
            for (int a = 0; a < na; a++) into[a] = shared[a];
        }
    }
}

/* ---- the answers as Python objects ---- */

static int bit_length(u128 x) {
    u64 hi = (u64)(x >> 64), lo = (u64)x;
    if (hi) return 128 - __builtin_clzll(hi);
    return lo ? 64 - __builtin_clzll(lo) : 0;
}

/* `a / b` rounded to the nearest double, ties to even, for 0 <= a <= b, b > 0: the
 * correctly rounded quotient, which is what Python's int / int gives. */
static double ratio(u128 a, u128 b) {
    if (!a) return 0.0;
#if FLT_EVAL_METHOD == 0
    /* Both exact as doubles, and one IEEE division rounds once. */
    if (!(b >> 53)) return (double)(u64)a / (double)(u64)b;
#endif
    int la = bit_length(a), lb = bit_length(b);
    /* q = floor(a * 2**s / b) lies in [2**54, 2**56): the 53 bits kept, two or three
     * below them, and whether anything is left (`sticky`) decide the rounding. */
    int s = lb - la + 55;
    u128 q;
    int sticky;
    if (lb + 55 <= 128) {
        u128 n = a << s;
        q = n / b;
        sticky = n % b != 0;
    } else {
        /* a * 2**s overflows: long division, from a aligned with b (a quotient bit of
         * 0 or 1), then one bit a step. */
        u128 rest = a << (lb - la);
        q = rest >= b;
        if (q) rest -= b;
        for (int i = 0; i < 55; i++) {
            int top = (int)(rest >> 127);
            rest <<= 1; /* modulo 2**128: with the top bit set, 2 * rest > b anyway */
            q <<= 1;
            if (top || rest >= b) {
                rest -= b;
                q |= 1;
            }
        }
        sticky = rest != 0;
    }
    int extra = bit_length(q) - 53;
    u64 mant = (u64)(q >> extra);
    u64 low = (u64)q & (((u64)1 << extra) - 1), half = (u64)1 << (extra - 1);
    if (low > half || (low == half && (sticky || (mant & 1)))) mant++;
    return ldexp((double)mant, extra - s);
}

static PyObject *long_of(u128 v) {
    if (!(v >> 64)) return PyLong_FromUnsignedLongLong((u64)v);
    PyObject *high = PyLong_FromUnsignedLongLong((u64)(v >> 64));
    PyObject *low = PyLong_FromUnsignedLongLong((u64)v);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *moved = high && shift ? PyNumber_Lshift(high, shift) : NULL;
    PyObject *out = moved && low ? PyNumber_Or(moved, low) : NULL;
    Py_XDECREF(high);
    Py_XDECREF(low);
    Py_XDECREF(shift);
    Py_XDECREF(moved);
    return out;
}

/* Per free card, its row of probabilities: one bytes of doubles, and the cards as
 * Py_ssize_t (numpy's intp), for numpy to read without a Python object per entry. */
static PyObject *rows_of(const Counter *k, const u128 *counts, u128 total) {
    int n = popc(k->free_cards), nh = k->nh;
    PyObject *rows = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)sizeof(double) * n * nh);
    PyObject *cards = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)sizeof(Py_ssize_t) * n);
    PyObject *out = NULL;
    if (rows && cards) {
        double *row = (double *)PyBytes_AS_STRING(rows);
        Py_ssize_t *card = (Py_ssize_t *)PyBytes_AS_STRING(cards);
        int i = 0;
        for (u64 rest = k->free_cards; rest; rest &= rest - 1, i++) {
            card[i] = low_index(rest);
            for (int h = 0; h < nh; h++) {
                int a = k->position[h];
                row[i * nh + h] = a < 0 ? 0.0 : ratio(counts[(size_t)i * k->n_active + a], total);
            }
        }
        PyObject *total_obj = long_of(total);
        if (total_obj) out = PyTuple_Pack(3, total_obj, rows, cards);
        Py_XDECREF(total_obj);
    }
    Py_XDECREF(rows);
    Py_XDECREF(cards);
    return out;
}

/* Per free card, its counts per holder: {card: (int, ...)}, as `CountTable.marginals`. */
static PyObject *counts_of(const Counter *k, const u128 *counts, u128 total) {
    PyObject *found = PyDict_New(), *out = NULL;
    int i = 0, failed = !found;
    for (u64 rest = k->free_cards; rest && !failed; rest &= rest - 1, i++) {
        PyObject *row = PyTuple_New(k->nh), *card = NULL;
        failed = !row;
        for (int h = 0; h < k->nh && !failed; h++) {
            int a = k->position[h];
            PyObject *n = long_of(a < 0 ? 0 : counts[(size_t)i * k->n_active + a]);
            if (n)
                PyTuple_SET_ITEM(row, h, n);
            else
                failed = 1;
        }
        if (!failed) card = PyLong_FromLong(low_index(rest));
        if (!card || PyDict_SetItem(found, card, row)) failed = 1;
        Py_XDECREF(card);
        Py_XDECREF(row);
    }
    if (!failed) {
        PyObject *total_obj = long_of(total);
        if (total_obj) out = PyTuple_Pack(2, total_obj, found);
        Py_XDECREF(total_obj);
    }
    Py_XDECREF(found);
    return out;
}

/* Reads `(holder, cards)` pairs of holders below `nh` and cards among `free_cards`. */
static int read_facts(PyObject *value, int nh, u64 free_cards, Pair *out, int *n_out) {
    Items items;
    if (items_of(value, &items, "expected a sequence of facts")) return -1;
    int status = 0;
    if (*n_out + items.n > COUNT_MAX_FACTS) status = UNSUPPORTED;
    for (Py_ssize_t i = 0; i < items.n && !status; i++) {
        long h;
        PyObject *cards_obj;
        u64 cards;
        status = pair_of(items.items[i], &h, &cards_obj);
        if (!status) status = exact_mask(cards_obj, &cards);
        if (!status && (h < 0 || h >= nh || !cards || cards & ~free_cards)) status = UNSUPPORTED;
        if (status) break;
        out[*n_out].h = (int)h;
        out[*n_out].cards = cards;
        (*n_out)++;
    }
    Py_DECREF(items.seq);
    return status;
}

/* Reads the problem into `k`; the facts into `pairs` (at-least-one ones first). */
static int read_problem(Counter *k, PyObject *const *args, Pair *pairs, int *n_pairs,
                        int *n_cons) {
    Items caps, may;
    int status = exact_mask(args[2], &k->free_cards);
    if (status) return status;
    if (items_of(args[0], &caps, "caps must be a sequence")) return -1;
    if (items_of(args[1], &may, "may must be a sequence")) {
        Py_DECREF(caps.seq);
        return -1;
    }
    if (caps.n > MAX_HOLDERS || may.n != caps.n) status = UNSUPPORTED;
    k->nh = (int)caps.n;
    k->n_active = 0;
    long room = 0;
    for (int h = 0; h < k->nh && !status; h++) {
        long cap;
        u64 cards;
        if (small_int(caps.items[h], &cap)) {
            status = -1;
            break;
        }
        status = exact_mask(may.items[h], &cards);
        if (!status && (cap < 0 || cap > 64)) status = UNSUPPORTED;
        if (status) break;
        k->position[h] = -1;
        if (!cap) continue;
        int a = k->n_active++;
        k->position[h] = a;
        k->active[a] = h;
        k->caps[a] = cap;
        k->may[a] = cards & k->free_cards;
        room += cap;
    }
    Py_DECREF(caps.seq);
    Py_DECREF(may.seq);
    if (status) return status;
    if (room != popc(k->free_cards)) return NO_DEAL;
    *n_pairs = 0;
    status = read_facts(args[3], k->nh, k->free_cards, pairs, n_pairs);
    *n_cons = *n_pairs;
    if (!status) status = read_facts(args[4], k->nh, k->free_cards, pairs, n_pairs);
    return status;
}

/* The multinomial of the free cards over the caps, the number of deals without the
 * facts: every count of the passes (a state's ways in or out, a product of them through
 * an option) counts some placements of some cards within the caps, so it is at most
 * this. Below 2**128, no u128 sum or product of the passes overflows. */
static int bounded(const Counter *k) {
    u128 deals = 1;
    long placed = 0;
    for (int a = 0; a < k->n_active; a++) {
        placed += k->caps[a];
        if (__builtin_mul_overflow(deals, (u128)binom[placed][k->caps[a]], &deals))
            return UNSUPPORTED;
    }
    return 0;
}

static PyObject *count_deals(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "count_deals takes 6 arguments");
        return NULL;
    }
    long mode;
    if (small_int(args[5], &mode)) return NULL;
    if (mode < 0 || mode > 2) {
        PyErr_SetString(PyExc_ValueError, "count_deals: mode is 0, 1 or 2");
        return NULL;
    }
    Counter *k = PyMem_Malloc(sizeof(Counter));
    Pair *pairs = PyMem_Malloc(sizeof(Pair) * COUNT_MAX_FACTS);
    if (!k || !pairs) {
        PyMem_Free(k);
        PyMem_Free(pairs);
        return PyErr_NoMemory();
    }
    k->arena.last = NULL;
    k->n_items = 0;
    k->leaves = 0;
    Reached r = {NULL, NULL, NULL, 0, 0, {0}};
    int *pos = NULL;
    u128 *later = NULL, *here = NULL, *counts = NULL;
    u128 total = 0;
    int n_pairs = 0, n_cons = 0;
    int status = read_problem(k, args, pairs, &n_pairs, &n_cons);
    if (!status) status = bounded(k);
    if (!status) status = make_states(k);
    if (!status) status = make_items(k, pairs, n_pairs, n_cons);
    if (!status && !k->n_items) total = 1; /* no free card, no room left: one deal */
    if (!status && k->n_items) {
        pos = PyMem_Calloc((size_t)k->n_states, sizeof(int));
        status = pos ? forward(k, &r, pos, &total) : -1;
    }
    if (!status && total && mode && k->n_items) {
        later = PyMem_Calloc((size_t)k->n_states, sizeof(u128));
        here = PyMem_Calloc((size_t)k->n_states, sizeof(u128));
        for (int i = 0; i < k->n_items && !status; i++) {
            k->items[i].through = arena_alloc(&k->arena, sizeof(u128) * k->items[i].n_opts);
            if (!k->items[i].through) status = -1;
        }
        if (!later || !here) status = -1;
        if (!status) backward(k, &r, later, here);
    }
    if (!status && total && mode) {
        counts = arena_zeros(&k->arena, sizeof(u128) * (size_t)(popc(k->free_cards) + 1) *
                                            (size_t)(k->n_active + 1));
        if (!counts) status = -1;
        if (!status) tally_cards(k, counts);
    }
    PyObject *result = NULL;
    if (status == NO_DEAL || (!status && !total)) {
        result = Py_BuildValue("(i)", 0);
    } else if (status == UNSUPPORTED) {
        Py_INCREF(Py_NotImplemented);
        result = Py_NotImplemented;
    } else if (status < 0) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        result = python_answers();
    } else if (mode == 0) {
        PyObject *total_obj = long_of(total);
        if (total_obj) result = PyTuple_Pack(1, total_obj);
        Py_XDECREF(total_obj);
    } else if (mode == 1) {
        result = rows_of(k, counts, total);
    } else {
        result = counts_of(k, counts, total);
    }
    PyMem_Free(r.state);
    PyMem_Free(r.index);
    PyMem_Free(r.ways);
    PyMem_Free(pos);
    PyMem_Free(later);
    PyMem_Free(here);
    arena_free(&k->arena);
    PyMem_Free(k);
    PyMem_Free(pairs);
    return result;
}

/* `ratio` for tests: `n / total` as `count_deals` rounds it, for 0 <= n <= total < 2**128. */
static PyObject *count_ratio(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    u128 v[2];
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "count_ratio takes 2 arguments");
        return NULL;
    }
    for (int i = 0; i < 2; i++) {
        PyObject *shift = PyLong_FromLong(64);
        PyObject *high = shift ? PyNumber_Rshift(args[i], shift) : NULL;
        Py_XDECREF(shift);
        if (!high) return NULL;
        unsigned long long hi = PyLong_AsUnsignedLongLong(high);
        Py_DECREF(high);
        unsigned long long lo = PyLong_AsUnsignedLongLongMask(args[i]);
        if (PyErr_Occurred()) return NULL;
        v[i] = (u128)hi << 64 | lo;
    }
    if (!v[1] || v[0] > v[1]) {
        PyErr_SetString(PyExc_ValueError, "count_ratio needs 0 <= n <= total, total > 0");
        return NULL;
    }
    return PyFloat_FromDouble(ratio(v[0], v[1]));
}

#define COUNTING_METHODS                                                                   \
    {"count_deals", (PyCFunction)(void (*)(void))count_deals, METH_FASTCALL,               \
     "count_deals(caps, may, free, constraints, exclusions, mode): the consistent deals "  \
     "of a reduced problem, exactly. mode 0: (total,); 1: (total, rows, cards), rows "     \
     "the probabilities as float64 bytes (free card x holder) and cards the free cards "   \
     "as intp bytes; 2: (total, {card: counts per holder}). (0,) for no deal; "            \
     "NotImplemented past the tables' limits."},                                           \
    {"count_ratio", (PyCFunction)(void (*)(void))count_ratio, METH_FASTCALL,               \
     "n / total as count_deals rounds it (for tests)."},

#else /* no 128-bit integers: Python counts */

static void make_binom(void) {}
#define COUNTING_METHODS

#endif

static PyMethodDef methods[] = {
    {"reduce_facts", (PyCFunction)(void (*)(void))reduce_facts, METH_FASTCALL,
     "The fields of problem.reduce_facts's Problem, from the layout's card count and the "
     "facts, for at most 64 cards; NotImplemented otherwise or on a contradiction."},
    {"possible_from_facts", (PyCFunction)(void (*)(void))possible_from_facts, METH_FASTCALL,
     "flow.possible_from_facts for at most 64 cards and 64 nodes; NotImplemented otherwise."},
    COUNTING_METHODS
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine", "Hot paths of the card engine, in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void) {
    make_binom();
    return PyModule_Create(&module);
}
