/* Two hot paths of the card engine in C: the reduction of the facts
 * (`epigames.cards.problem.reduce_facts`) and the flow's possible holders
 * (`epigames.cards.flow.possible_from_facts`).
 *
 * The same algorithms as the Python modules (read their docstrings for the why). Here a
 * mask is one machine word, so they answer only problems of at most 64 cards (and, for
 * the flow, 64 nodes: groups and holders); for any other, and for facts that contradict
 * each other, they return NotImplemented and the Python code answers (and words the
 * error). Built beside the mypyc modules and used only where they are
 * (`epigames.native.c_module`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

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

static PyMethodDef methods[] = {
    {"reduce_facts", (PyCFunction)(void (*)(void))reduce_facts, METH_FASTCALL,
     "The fields of problem.reduce_facts's Problem, from the layout's card count and the "
     "facts, for at most 64 cards; NotImplemented otherwise or on a contradiction."},
    {"possible_from_facts", (PyCFunction)(void (*)(void))possible_from_facts, METH_FASTCALL,
     "flow.possible_from_facts for at most 64 cards and 64 nodes; NotImplemented otherwise."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_engine", "Hot paths of the card engine, in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__engine(void) { return PyModule_Create(&module); }
