#!/usr/bin/env python3
"""Writes the seed corpus files of the extended dialect of spec/fuzz/fuzz.c.

Each seed is the byte string that fuzz.c decodes into one of issue 11's
reproducers; the tables are read from fuzz.c, so reordering them is fine,
but a change to the decoder's grammar must be mirrored here. Check a seed
with LINALG_FUZZ_PRINT=only ./build-fuzz/fuzz spec/fuzz/corpus/NAME.
Run from the repository root: python3 spec/fuzz/seeds.py
"""
import ast
import os
import re

SRC = open("spec/fuzz/fuzz.c").read()


def table(name):
    body = re.search(r"\b%s\[\] = \{(.*?)\n\};" % name, SRC, re.S).group(1)
    return body


def strings(name):
    return [ast.literal_eval(s) for s in re.findall(r'"(?:[^"\\]|\\.)*"', table(name))]


NUMBERS, INTS, HUGE, FILES = strings("numbers"), strings("ints"), strings("huge"), strings("files")
NPYPIECES = strings("npypieces")
TEXTS = [ast.literal_eval("b" + s) for s in re.findall(r'T\(("(?:[^"\\]|\\.)*")\)', table("texts"))]
OPTFNS = re.findall(r'\{"(\w+)", "(\w*)", "([\w ]*)"\}', table("optfns"))
OPTKEYS = dict(re.findall(r'\{"(\w+)", \'(\w)\'\}', table("optkeys")))
FNAMES = [f[0] for f in OPTFNS]


class Seed:
    """Bytes for the decoder, written choice by choice."""

    def __init__(self, gc=0, period=1):   # gc: 3 incremental, 4 generational, 5 storm
        self.b = bytearray(b"X")
        self.b.append(gc)
        if gc == 5:
            self.b.append(period - 1)

    def byte(self, *v):
        self.b.extend(v)
        return self

    # registers: 8 of them, as decode() reads them
    def randn(self, m, n, seed=1):
        return self.byte(1, m, n, seed)

    def literal(self, rows):
        self.byte(0, len(rows), len(rows[0]) if rows else 0)
        for r in rows:
            for x in r:
                self.byte(NUMBERS.index(x))
        return self

    def zeros(self, m, n):     # m huge, n in 0..2 (or the other way round)
        if HUGE.index(n) < 3:
            return self.byte(1, HUGE.index(m), HUGE.index(n))
        return self.byte(0, HUGE.index(m), HUGE.index(n))

    def reg_zeros(self, m, n):
        self.byte(3)
        return self.zeros(m, n)

    # pieces of a call
    def matrix(self, r):        # register r (1-based)
        return self.byte(0, r - 1)

    def mzeros(self, m, n):
        self.byte(7)
        return self.zeros(m, n)

    def string(self, text, form="plain", extra=0):
        t = TEXTS.index(text)
        if form == "plain":
            return self.byte(t, 0)
        if form == "long":      # text .. ("x"):rep(41 + extra)
            return self.byte(t, 2, extra)
        if form == "x":         # ("x"):rep(41 + 3 * extra)
            return self.byte(t, 3, extra)
        return self.byte(t, 4, extra)   # split at extra

    def int_(self, v):
        if v in HUGE:
            return self.byte(0, HUGE.index(v))
        return self.byte(1, INTS.index(v))

    def optvalue(self, key, kind, *args):
        """kind: 'typed' then the typed value's bytes, or 'any' and a value"""
        if kind == "any":
            self.byte(0)
            return self.value(*args)
        self.byte(1)
        t = OPTKEYS[key]
        if t == "b":
            return self.byte(1 if args[0] else 0)
        if t == "n":
            return self.byte(1, NUMBERS.index(args[0]))
        if t == "s":
            return self.string(*args)
        if t == "m":
            return self.matrix(args[0])
        raise ValueError(key)

    def value(self, what, *args):
        if what == "string":
            self.byte(0)
            return self.string(*args)
        if what == "number":
            return self.byte(2, NUMBERS.index(args[0]))
        if what == "int":
            return self.byte(3, INTS.index(args[0]))
        if what == "bool":
            return self.byte(4, 1 if args[0] else 0)
        if what == "nil":
            return self.byte(5)
        raise ValueError(what)

    def options(self, fname, raw=(), lazy=(), mt=1):
        """raw: [(key, misspell or None, valuebytes-callback)], lazy: [(key, callback)]"""
        keys = dict((f[0], f[2].split()) for f in OPTFNS)[fname]
        self.byte(len(raw) + len(lazy), mt if lazy else 0)
        for key, spell, cb in raw:
            if key in keys:
                self.byte(keys.index(key))
            else:                          # unknown: ["zzz"] = value
                self.byte(len(keys), 1)
                cb(self)
                continue
            if lazy:
                self.byte(0)               # not lazy
            self.byte(*(spell or (0,)))
            if len(key) > 1 and not spell:
                self.byte(0)
            cb(self)
        for key, _ in lazy:
            self.byte(keys.index(key), 1)
        for key, cb in sorted(lazy, key=lambda kv: keys.index(kv[0])):
            cb(self)
        return self

    def call_opts(self, fname, *argbytes):
        self.byte(8, FNAMES.index(fname))
        for cb in argbytes:
            cb(self)
        return self

    def fill_registers(self, n):
        for _ in range(n):
            self.randn(3, 3, 1)
        return self


def regs(seed, first=()):
    """the registers: the ones given, then 3x3 randn"""
    for f in first:
        f(seed)
    return seed.fill_registers(8 - len(first))


def write(name, seed):
    os.makedirs("spec/fuzz/corpus", exist_ok=True)
    with open("spec/fuzz/corpus/" + name, "wb") as f:
        f.write(bytes(seed.b))


def gc_option(name, fname, key, args, text=b"x", form="x", extra=7, gc=0):
    """fname(args..., O({}, {key = fresh string})) with other keys read after"""
    s = regs(Seed(gc, 1), [lambda s: s.randn(4, 3, 1), lambda s: s.randn(4, 2, 2)])
    s.call_opts(fname, *args)
    if OPTKEYS[key] == "s":
        s.options(fname, lazy=[(key, lambda s: s.optvalue(key, "typed", text, form, extra))])
    else:
        s.options(fname, lazy=[(key, lambda s: s.optvalue(key, "any", "string", text, form, extra))])
    write(name, s)


M1 = lambda s: s.matrix(1)  # noqa: E731
M2 = lambda s: s.matrix(2)  # noqa: E731


def main():
    # issue 11, item 1: a string option freed by a later __index
    gc_option("opts-gc-qr-mode", "qr", "mode", [M1])
    gc_option("opts-gc-gram-schmidt-method", "gram_schmidt", "method", [M1])
    gc_option("opts-gc-lstsq-method", "lstsq", "method", [M1, M2], gc=5)
    gc_option("opts-gc-svd-full", "svd", "full", [M1])
    bytes0 = lambda s: s.byte(2, 0, 0)         # ("\0"):rep(0)  # noqa: E731
    zero = lambda s: s.int_("0")               # noqa: E731
    gc_option("opts-gc-frombuffer-dtype", "frombuffer", "dtype", [bytes0, zero, zero])
    gc_option("opts-gc-frombuffer-order", "frombuffer", "order", [bytes0, zero, zero])
    # item 2: frombuffer("", 0, 0, {dtype = ""}) and "<", ">", "|"
    for name, t in (("empty", b""), ("lt", b"<"), ("gt", b">"), ("bar", b"|")):
        s = regs(Seed())
        s.call_opts("frombuffer", bytes0, zero, zero)
        s.options("frombuffer", raw=[("dtype", None, lambda s, t=t: s.optvalue("dtype", "typed", t))])
        write("frombuffer-dtype-" + name, s)
    # item 3: attention / lstsq on zero-element inputs with huge extents
    s = regs(Seed())
    s.call_opts("attention", lambda s: s.mzeros("1", "0"), lambda s: s.mzeros("2^31 - 1", "0"),
                lambda s: s.mzeros("2^31 - 1", "0"))
    s.options("attention")
    write("attention-huge-empty", s)
    s = regs(Seed())
    s.call_opts("attention", lambda s: s.mzeros("2^31 - 255", "0"), lambda s: s.mzeros("1", "0"),
                lambda s: s.mzeros("1", "0"))
    s.options("attention")
    write("attention-nq-overflow", s)
    s = regs(Seed())
    s.call_opts("lstsq", lambda s: s.mzeros("2^31 - 1", "0"), lambda s: s.mzeros("2^31 - 1", "0"))
    s.options("lstsq")
    write("lstsq-huge-empty", s)
    # item 9: multihead attention, zero-width projections, heads = math.maxinteger
    s = regs(Seed(), [lambda s: s.randn(4, 2, 1)])
    s.byte(15, HUGE.index("1"), HUGE.index("1"), HUGE.index("2"), 2, 0, 1)
    write("mha-maxinteger-heads", s)
    # item 5: markup in a plot_vectors color, a heatmap title
    s = regs(Seed())
    s.byte(13, 1, 1)                          # plot_vectors, one arrow
    s.byte(0, NUMBERS.index("1"), NUMBERS.index("2"))
    s.byte(1).string(b"\"/><script>alert(1)</script><g x=\"")   # label
    s.byte(1).string(b"\"/><script>alert(1)</script><g x=\"")   # color
    s.byte(1, 1, 1)                          # no from, no dashed, title
    s.string(b"<b>&amp;</b>")
    s.byte(1, 1)                             # no right angles, path p.svg
    write("svg-plot-vectors-color-markup", s)
    s = regs(Seed())
    s.byte(13, 0, 0, 0)                      # heatmap of R[1]
    s.options("heatmap", raw=[
        ("title", None, lambda s: s.optvalue("title", "typed", b"\"/><script>alert(1)</script><g x=\"")),
        ("cmap", None, lambda s: s.optvalue("cmap", "typed", b"\"/><script>alert(1)</script><g x=\"")),
        ("cell", None, lambda s: s.optvalue("cell", "typed", "0.5"))])
    write("svg-heatmap-markup", s)
    s = regs(Seed())
    s.byte(13, 0, 0, 0)
    s.options("heatmap", raw=[
        ("max_cells", None, lambda s: s.optvalue("max_cells", "any", "string", b"x")),
        ("vmin", None, lambda s: s.optvalue("vmin", "any", "string", b"r"))])
    write("svg-heatmap-option-types", s)
    s = regs(Seed())                         # integer options at infinity
    s.byte(13, 0, 0, 0)
    s.options("heatmap", raw=[
        ("max_cells", None, lambda s: s.optvalue("max_cells", "typed", "(-1/0)")),
        ("cell", None, lambda s: s.optvalue("cell", "typed", "(1/0)"))])
    write("svg-heatmap-infinite-integer-option", s)
    # .npy headers (the contract's section): overflowing shape, (3,,,),
    # nested tuples, 'descr' in another string, duplicate keys, a directory
    def npyfile(name, pieces, data, where="f.npy"):
        s = regs(Seed())
        s.byte(11)
        s.byte(1 | 2 | 8 | 16, len(pieces))  # "{" pieces ", }" "\n", version 1, right length
        for p in pieces:
            s.byte(NPYPIECES.index(p))
        s.byte(*data)
        s.byte(0, 1 if where == "f.npy" else 0)
        write(name, s)
    d24 = (3, 3)                             # D(3): 24 bytes
    npyfile("npy-shape-overflow", ["'descr': '<f8'", "'fortran_order': False",
                                   "'shape': (99999999999999999999, 3)"], d24)
    npyfile("npy-shape-commas", ["'descr': '<f8'", "'fortran_order': False", "'shape': (3,,,)"], d24)
    npyfile("npy-shape-nested", ["'descr': '<f8'", "'fortran_order': False", "'shape': ((3,),)"], d24)
    npyfile("npy-descr-in-string", ["'x': \"'descr': '<i4'\"", "'descr': '<f8'",
                                    "'fortran_order': False", "'shape': (3,)"], d24)
    npyfile("npy-duplicate-keys", ["'descr': '<f8'", "'fortran_order': False", "'shape': (6, 1)",
                                   "'shape': (3,)"], d24)
    npyfile("npy-shape-int-overflow", ["'descr': '<f8'", "'fortran_order': False",
                                       "'shape': (3037000500, 3037000500)"], (3, 0))
    npyfile("npy-directory", ["'descr': '<f8'", "'fortran_order': False", "'shape': (3,)"], d24,
            where="")
    # CSV: every kind of field, then a load with a bad separator
    s = regs(Seed())
    s.byte(12, 4, 3, 1)                      # 4 rows, 4 columns, separator ","
    fields = [("1", "-2.5", "nan", "-inf"), ("Infinity", "", " ", "1e999"),
              ("0x10", "\"1\"", "1 2", "abc"), ("1e-400", "  3  ", "+5", "-0")]
    csvfields = strings("csvfields")
    for row in fields:
        s.byte(1)                            # as many fields as the first row
        for f in row:
            s.byte(1, csvfields.index(f))
        s.byte(0)                            # \r\n
    s.byte(0)                                # into R[1]
    s.options("load_csv", raw=[("sep", None, lambda s: s.optvalue("sep", "typed", b""))])
    write("csv-fields-empty-sep", s)
    # save and load back (NaN, Inf, -0, denormals), tobytes with options
    s = regs(Seed(), [lambda s: s.literal([["(0/0)", "-1e308", "0"], ["4.9e-324", "(1/0)", "-2.5"]])])
    s.byte(15, 0, 0, 0, 4, 0, 1)             # RT(R[1], ",")
    s.byte(15, 0, 0, 0, 4, 0, 0)             # RT(R[1], ";")
    write("roundtrip-npy-csv", s)
    s = regs(Seed())
    s.call_opts("tobytes", M1)
    s.options("tobytes", raw=[("dtype", None, lambda s: s.optvalue("dtype", "typed", b">f4")),
                              ("order", None, lambda s: s.optvalue("order", "typed", b"C"))])
    s.call_opts("tobytes", M1)
    s.options("tobytes", raw=[("dtype", None, lambda s: s.optvalue("dtype", "typed", b"<f8x"))])
    write("tobytes-options", s)
    # issue 10's misspelt keys and wrongly typed values
    s = regs(Seed(), [lambda s: s.randn(4, 3, 1)])
    s.call_opts("attention", M1, M1, M1)
    s.options("attention", raw=[("causal", (5, 2), lambda s: s.optvalue("causal", "typed", True)),
                                ("weights", None, lambda s: s.optvalue("weights", "any", "int", "1"))])
    s.call_opts("attention", M1, M1, M1)
    s.options("attention", raw=[("causal", None, lambda s: s.optvalue("causal", "any", "string", b"yes"))])
    write("opts-misspelt-attention", s)
    # functions being added: lsq_state from bytes, pow, A ^ k, npy_info,
    # attention with lse and attention_combine
    s = regs(Seed(), [lambda s: s.randn(5, 3, 1), lambda s: s.randn(5, 1, 2)])
    s.byte(14, 0, 0, 1, 2, INTS.index("3"), INTS.index("1"), 9, 1, 0xff)
    s.options("lstsq")
    s.byte(14, 1, 0, 1, 2, 0, 16, *range(16))
    s.byte(14, 2, 0, 0, 2, 0, 0, 1, NUMBERS.index("0.5"))
    s.byte(14, 3, 2, 0, 3, INTS.index("-1"))
    s.byte(14, 4, 0, 0, 2, 1 | 8 | 16, 3, NPYPIECES.index("'descr': '<f8'"),
           NPYPIECES.index("'fortran_order': False"), NPYPIECES.index("'shape': (3,)"), 3, 3, 1)
    s.byte(14, 5, 2, 3, 4, 5, 6)
    s.byte(14, 6, 2, 1, 0, 0, 0, 0, 1, 0, 2, 0, 3)
    write("newer-functions", s)

    # attention's two fused kernels (no mask; an all-ones mask) agree: plain,
    # causal, bottom-right causal with a negative scale, on 100 x 8 queries
    # and 120 keys (la.rand(4 * byte % 601, byte % 40))
    s = regs(Seed(), [lambda s: s.byte(2, 25, 8, 1), lambda s: s.byte(2, 30, 8, 2),
                      lambda s: s.byte(2, 30, 5, 3)])
    s.byte(14, 7, 0, 1, 2, 0, 1)
    s.byte(14, 7, 0, 1, 2, 1, 1)
    s.byte(14, 7, 0, 1, 2, 2, 0, NUMBERS.index("-2.5"))
    write("attention-kernels-agree", s)


if __name__ == "__main__":
    main()
