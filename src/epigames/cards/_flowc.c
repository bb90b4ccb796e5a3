/* The possible holders of `epigames.cards.flow.possible_from_facts`, in C.
 *
 * The same algorithm as the Python module (read its docstrings for the why): groups
 * from the facts, one feasible deal, the residual graph's strongly connected components
 * and the cards each reaches. Here a mask is one machine word, so it answers only
 * problems of at most 64 cards and 64 nodes (groups and holders); for any other it
 * returns NotImplemented and the Python code answers. Built beside the mypyc modules and
 * used only when they are (`epigames.native.c_module`).
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
    if (status < 0) return NULL;
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

static PyMethodDef methods[] = {
    {"possible_from_facts", (PyCFunction)(void (*)(void))possible_from_facts, METH_FASTCALL,
     "flow.possible_from_facts for at most 64 cards and 64 nodes; NotImplemented otherwise."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_flowc", "The card engine's flow, in C.", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__flowc(void) { return PyModule_Create(&module); }
