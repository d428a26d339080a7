/* The move generator's inner search in C: the same Appel-Jacobson algorithm, counting rules and scorer
 * as the pure-Python `_generate_python` in lexicon/movegen.py, which stays the reference (the tests
 * check the two give identical lists). Python encodes the position (lexicon.movegen.encode_position);
 * this file only walks the word graph (lexicon/graph.py layout) and returns sorted move tuples.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CODE_MASK 0x3Fu
#define ACCEPTS 0x40u
#define LAST 0x80u
#define BLANK_BIT 0x40u
#define NEW_BIT 0x80u
#define MAXN 32
#define MAXSQ (MAXN * MAXN)

typedef struct {
    int score, row, col, down, len;
    Py_UCS4 text[MAXN];
} MoveRec;

typedef struct {
    const uint32_t *arcs;
    uint32_t root;
    int size;
    int rack[64];
    int blanks;
    int ntiles;
    uint8_t blank_ok[64];
    long values[64];
    Py_UCS4 upper[64], lower[64];
    uint64_t bingo_mask;
    long bingo_bonus;
    int limit_one, stop;
    /* the line being searched */
    int down, line;
    uint8_t row[MAXN];
    const uint8_t *lm, *wm;       /* this line's premiums */
    const uint64_t *masks;        /* this line's cross-checks */
    const long *sums;             /* this line's cross-sums, -1: no cross word */
    uint8_t word[MAXN];
    int wlen;
    /* output */
    MoveRec *moves;
    size_t nmoves, cap;
    int oom;
} Gen;

static inline uint32_t find_arc(const uint32_t *arcs, uint32_t node, unsigned code) {
    if (!node) return 0;
    for (uint32_t i = node;; i++) {
        uint32_t a = arcs[i];
        unsigned c = a & CODE_MASK;
        if (c == code) return a;
        if (c > code || (a & LAST)) return 0;
    }
}

static void record(Gen *g, int end) {
    int len = g->wlen;
    if (len < 2) return;  /* a lone tile forms no word along this line */
    int start = end - len;
    long main_sum = 0, mult = 1, cross = 0;
    int placed = 0, last_new = -1;
    Py_UCS4 text[MAXN];
    for (int k = 0; k < len; k++) {
        int i = start + k;
        unsigned t = g->word[k];
        unsigned code = t & CODE_MASK;
        long v = (t & BLANK_BIT) ? 0 : g->values[code];
        if (t & NEW_BIT) {
            placed++;
            last_new = i;
            long lmul = g->lm[i], wmul = g->wm[i];
            main_sum += v * lmul;
            mult *= wmul;
            if (g->sums[i] >= 0) cross += (g->sums[i] + v * lmul) * wmul;
            text[k] = (t & BLANK_BIT) ? g->lower[code] : g->upper[code];
        } else {
            main_sum += v;
            text[k] = '.';
        }
    }
    if (g->down && placed == 1 && g->sums[last_new] >= 0) return;  /* counted as across */
    long score = main_sum * mult + cross + ((placed < 64 && (g->bingo_mask >> placed) & 1) ? g->bingo_bonus : 0);
    if (g->nmoves == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 1024;
        MoveRec *m = realloc(g->moves, cap * sizeof(MoveRec));
        if (!m) { g->oom = 1; g->stop = 1; return; }
        g->moves = m;
        g->cap = cap;
    }
    MoveRec *r = &g->moves[g->nmoves++];
    r->score = (int)score;
    r->down = g->down;
    r->row = g->down ? start : g->line;
    r->col = g->down ? g->line : start;
    r->len = len;
    memcpy(r->text, text, sizeof(Py_UCS4) * (size_t)len);
    if (g->limit_one) g->stop = 1;
}

static void extend_right(Gen *g, uint32_t node, int i, int accepts, int anchor) {
    if (g->stop) return;
    if (i == g->size || !g->row[i]) {
        if (accepts && i > anchor) record(g, i);
        if (i == g->size || !node) return;
        uint64_t mask = g->masks[i];
        for (uint32_t j = node;; j++) {
            uint32_t arc = g->arcs[j];
            unsigned code = arc & CODE_MASK;
            if ((mask >> code) & 1) {
                if (g->rack[code]) {
                    g->rack[code]--;
                    g->word[g->wlen++] = (uint8_t)(code | NEW_BIT);
                    extend_right(g, arc >> 8, i + 1, arc & ACCEPTS, anchor);
                    g->wlen--;
                    g->rack[code]++;
                }
                if (g->blanks && g->blank_ok[code]) {
                    g->blanks--;
                    g->word[g->wlen++] = (uint8_t)(code | NEW_BIT | BLANK_BIT);
                    extend_right(g, arc >> 8, i + 1, arc & ACCEPTS, anchor);
                    g->wlen--;
                    g->blanks++;
                }
                if (g->stop) return;
            }
            if (arc & LAST) break;
        }
    } else {
        unsigned t = g->row[i];
        uint32_t arc = find_arc(g->arcs, node, t & CODE_MASK);
        if (arc) {
            g->word[g->wlen++] = (uint8_t)t;
            extend_right(g, arc >> 8, i + 1, arc & ACCEPTS, anchor);
            g->wlen--;
        }
    }
}

static void left_part(Gen *g, uint32_t node, int limit, int anchor) {
    extend_right(g, node, anchor, 0, anchor);
    if (limit <= 0 || !node || g->stop) return;
    for (uint32_t j = node;; j++) {
        uint32_t arc = g->arcs[j];
        unsigned code = arc & CODE_MASK;
        uint32_t child = arc >> 8;
        if (child) {
            if (g->rack[code]) {
                g->rack[code]--;
                g->word[g->wlen++] = (uint8_t)(code | NEW_BIT);
                left_part(g, child, limit - 1, anchor);
                g->wlen--;
                g->rack[code]++;
            }
            if (g->blanks && g->blank_ok[code]) {
                g->blanks--;
                g->word[g->wlen++] = (uint8_t)(code | NEW_BIT | BLANK_BIT);
                left_part(g, child, limit - 1, anchor);
                g->wlen--;
                g->blanks++;
            }
            if (g->stop) return;
        }
        if (arc & LAST) break;
    }
}

/* Cross-checks for one direction, in line order: cells[] is in board order, `transpose` for down. */
static void cross_checks(Gen *g, const uint8_t *cells, int transpose, uint64_t *masks, long *sums) {
    int n = g->size;
#define AT(line, i) (transpose ? cells[(i) * n + (line)] : cells[(line) * n + (i)])
    for (int line = 0; line < n; line++) {
        for (int i = 0; i < n; i++) {
            int idx = line * n + i;
            masks[idx] = ~(uint64_t)0;
            sums[idx] = -1;
            if (AT(line, i)) { masks[idx] = 0; continue; }
            /* the perpendicular through (line, i) runs along index `line` of the neighbouring lines */
            int lo = line, hi = line;
            while (lo > 0 && AT(lo - 1, i)) lo--;
            while (hi < n - 1 && AT(hi + 1, i)) hi++;
            if (lo == line && hi == line) continue;
            long total = 0;
            for (int k = lo; k <= hi; k++) {
                if (k == line) continue;
                unsigned t = AT(k, i);
                if (!(t & BLANK_BIT)) total += g->values[t & CODE_MASK];
            }
            sums[idx] = total;
            uint32_t node = g->root;
            for (int k = lo; k < line && node; k++) {
                uint32_t a = find_arc(g->arcs, node, AT(k, i) & CODE_MASK);
                node = a ? a >> 8 : 0;
            }
            uint64_t mask = 0;
            if (node) {
                for (uint32_t j = node;; j++) {
                    uint32_t arc = g->arcs[j];
                    int good;
                    if (hi > line) {
                        uint32_t nd = arc >> 8, a = 0;
                        for (int k = line + 1; k <= hi; k++) {
                            a = find_arc(g->arcs, nd, AT(k, i) & CODE_MASK);
                            if (!a) break;
                            nd = a >> 8;
                        }
                        good = (a & ACCEPTS) != 0;
                    } else {
                        good = (arc & ACCEPTS) != 0;
                    }
                    if (good) mask |= (uint64_t)1 << (arc & CODE_MASK);
                    if (arc & LAST) break;
                }
            }
            masks[idx] = mask;
        }
    }
#undef AT
}

static int cmp_moves(const void *pa, const void *pb) {
    const MoveRec *a = pa, *b = pb;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    if (a->row != b->row) return a->row < b->row ? -1 : 1;
    if (a->col != b->col) return a->col < b->col ? -1 : 1;
    if (a->down != b->down) return a->down < b->down ? -1 : 1;
    int n = a->len < b->len ? a->len : b->len;
    for (int k = 0; k < n; k++)
        if (a->text[k] != b->text[k]) return a->text[k] < b->text[k] ? -1 : 1;
    return a->len < b->len ? -1 : (a->len > b->len ? 1 : 0);
}

static int read_longs(PyObject *seq, long *out, Py_ssize_t n, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s must have %zd items", what, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 0;
}

/* check_graph(arcs) -> bool: every child index inside the array, codes in range, the last arc closes
 * its node; so no walk can leave the buffer even if a cache file was damaged. */
static PyObject *check_graph(PyObject *self, PyObject *args) {
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    const uint32_t *arcs = buf.buf;
    Py_ssize_t n = buf.len / 4;
    int ok = n >= 2 && buf.len % 4 == 0 && (arcs[n - 1] & LAST);
    for (Py_ssize_t i = 1; ok && i < n; i++) {
        uint32_t a = arcs[i];
        unsigned c = a & CODE_MASK;
        if (c == 0 || c > 62 || (Py_ssize_t)(a >> 8) >= n) ok = 0;
    }
    PyBuffer_Release(&buf);
    return PyBool_FromLong(ok);
}

/* generate(size, cells, lm, wm, values, rack, blanks, blank_codes, centre, bingo_bonus, bingo_sizes,
 *          upper, lower, arcs, root, limit_one) -> [(row, col, down, word, score), ...] sorted */
static PyObject *generate(PyObject *self, PyObject *args) {
    int size, blanks, centre, limit_one;
    unsigned int root;
    long bingo_bonus;
    const char *cells_b, *lm_b, *wm_b, *bc_b;
    Py_ssize_t cells_n, lm_n, wm_n, bc_n;
    PyObject *values_o, *rack_o, *bingo_o, *upper_o, *lower_o;
    Py_buffer arcs_buf;
    if (!PyArg_ParseTuple(args, "iy#y#y#OOiy#ilOUUy*Ip", &size, &cells_b, &cells_n, &lm_b, &lm_n, &wm_b, &wm_n,
                          &values_o, &rack_o, &blanks, &bc_b, &bc_n, &centre, &bingo_bonus, &bingo_o,
                          &upper_o, &lower_o, &arcs_buf, &root, &limit_one))
        return NULL;
    PyObject *result = NULL;
    Gen *g = calloc(1, sizeof(Gen));
    uint8_t *lcells = NULL, *llm = NULL, *lwm = NULL;
    uint64_t *masks = NULL;
    long *sums = NULL;
    if (!g) { PyErr_NoMemory(); goto done; }
    if (size < 1 || size > MAXN || cells_n != size * size || lm_n != cells_n || wm_n != cells_n) {
        PyErr_SetString(PyExc_ValueError, "board arrays do not match the board size");
        goto done;
    }
    if (PyUnicode_GET_LENGTH(upper_o) != 64 || PyUnicode_GET_LENGTH(lower_o) != 64) {
        PyErr_SetString(PyExc_ValueError, "alphabet tables must have 64 letters");
        goto done;
    }
    g->arcs = arcs_buf.buf;
    Py_ssize_t narcs = arcs_buf.len / 4;
    if (root == 0 || root >= narcs) { PyErr_SetString(PyExc_ValueError, "bad graph root"); goto done; }
    g->root = root;
    g->size = size;
    long tmp[64];
    if (read_longs(values_o, g->values, 64, "values") < 0) goto done;
    if (read_longs(rack_o, tmp, 64, "rack") < 0) goto done;
    g->ntiles = blanks;
    for (int c = 0; c < 64; c++) { g->rack[c] = (int)tmp[c]; g->ntiles += (int)tmp[c]; }
    g->blanks = blanks;
    for (Py_ssize_t k = 0; k < bc_n; k++) g->blank_ok[(uint8_t)bc_b[k] & 63] = 1;
    {
        PyObject *fast = PySequence_Fast(bingo_o, "bingo sizes");
        if (!fast) goto done;
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(fast); k++) {
            long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, k));
            if (b >= 0 && b < 64) g->bingo_mask |= (uint64_t)1 << b;
        }
        Py_DECREF(fast);
        if (PyErr_Occurred()) goto done;
    }
    g->bingo_bonus = bingo_bonus;
    for (int c = 0; c < 64; c++) {
        g->upper[c] = PyUnicode_READ_CHAR(upper_o, c);
        g->lower[c] = PyUnicode_READ_CHAR(lower_o, c);
    }
    g->limit_one = limit_one;
    int nsq = size * size;
    const uint8_t *cells = (const uint8_t *)cells_b;
    lcells = malloc((size_t)nsq * 3);
    masks = malloc(sizeof(uint64_t) * (size_t)nsq);
    sums = malloc(sizeof(long) * (size_t)nsq);
    if (!lcells || !masks || !sums) { PyErr_NoMemory(); goto done; }
    llm = lcells + nsq;
    lwm = llm + nsq;
    int empty_board = 1;
    for (int k = 0; k < nsq; k++) if (cells[k]) { empty_board = 0; break; }
    if (g->ntiles > 0) {
        Py_BEGIN_ALLOW_THREADS
        for (int down = 0; down < 2 && !g->stop; down++) {
            if (down && empty_board) break;  /* openings are counted across only */
            for (int r = 0; r < size; r++)
                for (int c = 0; c < size; c++) {
                    int src = down ? c * size + r : r * size + c;
                    lcells[r * size + c] = cells[src];
                    llm[r * size + c] = (uint8_t)lm_b[src];
                    lwm[r * size + c] = (uint8_t)wm_b[src];
                }
            cross_checks(g, cells, down, masks, sums);
            g->down = down;
            for (int line = 0; line < size && !g->stop; line++) {
                if (empty_board && line != centre / size) continue;
                int base = line * size;
                memcpy(g->row, lcells + base, (size_t)size);
                g->lm = llm + base;
                g->wm = lwm + base;
                g->masks = masks + base;
                g->sums = sums + base;
                g->line = line;
                uint8_t anchor[MAXN];
                for (int i = 0; i < size; i++) {
                    if (empty_board) anchor[i] = (i == centre % size);
                    else anchor[i] = !g->row[i] && ((i > 0 && g->row[i - 1]) || (i < size - 1 && g->row[i + 1])
                                                    || g->sums[i] >= 0);
                }
                for (int a = 0; a < size && !g->stop; a++) {
                    if (!anchor[a]) continue;
                    if (a > 0 && g->row[a - 1]) {
                        int s = a - 1;
                        while (s > 0 && g->row[s - 1]) s--;
                        uint32_t node = g->root;
                        for (int i = s; i < a && node; i++) {
                            uint32_t arc = find_arc(g->arcs, node, g->row[i] & CODE_MASK);
                            node = arc ? arc >> 8 : 0;
                        }
                        if (node) {
                            g->wlen = a - s;
                            memcpy(g->word, g->row + s, (size_t)(a - s));
                            extend_right(g, node, a, 0, a);
                            g->wlen = 0;
                        }
                    } else {
                        int limit = 0, i = a - 1;
                        while (i >= 0 && !g->row[i] && !anchor[i]) { limit++; i--; }
                        if (limit > g->ntiles - 1) limit = g->ntiles - 1;
                        g->wlen = 0;
                        left_part(g, g->root, limit, a);
                    }
                }
            }
        }
        if (!g->oom) qsort(g->moves, g->nmoves, sizeof(MoveRec), cmp_moves);
        Py_END_ALLOW_THREADS
    }
    if (g->oom) { PyErr_NoMemory(); goto done; }
    result = PyList_New((Py_ssize_t)g->nmoves);
    if (!result) goto done;
    for (size_t k = 0; k < g->nmoves; k++) {
        MoveRec *m = &g->moves[k];
        PyObject *word = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, m->text, m->len);
        PyObject *t = word ? Py_BuildValue("(iiiNi)", m->row, m->col, m->down, word, m->score) : NULL;
        if (!t) { Py_CLEAR(result); goto done; }
        PyList_SET_ITEM(result, (Py_ssize_t)k, t);
    }
done:
    PyBuffer_Release(&arcs_buf);
    if (g) free(g->moves);
    free(g);
    free(lcells);
    free(masks);
    free(sums);
    return result;
}

static PyMethodDef methods[] = {
    {"generate", generate, METH_VARARGS, "Every move for an encoded position, sorted best first."},
    {"check_graph", check_graph, METH_VARARGS, "Whether a word graph's arcs are safe to walk."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_movegen", "C move generator search.", -1, methods};

PyMODINIT_FUNC PyInit__movegen(void) { return PyModule_Create(&module); }
