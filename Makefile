# linalg: dense linear algebra for Lua 5.1-5.4 and LuaJIT on OpenBLAS and LAPACKE.
#   make demo    install missing packages, build, run the examples
#   make test    install missing packages, build, run specs and the host test
#                under every Lua (make test-lua LUA=lua5.3: one of them)
# LUA=lua5.1|lua5.2|lua5.3|lua5.4|luajit (default lua5.4) picks the Lua to
# build for, each into its own folder: build/ for lua5.4, build-lua5.1/,
# build-lua5.2/, build-lua5.3/, build-luajit/ (the module is
# <folder>/linalg/core.so); `make env LUA=...` prints its exports.
#   make bench   linalg next to NumPy and raw OpenBLAS/LAPACKE
#   make install PREFIX=/usr/local [DESTDIR=...]   (the tree may move)
#   make dist    dist/linalg-<version>-1.src.rock (README: Releasing)
# luarocks passes CFLAGS, LIBFLAG, LUA_INCDIR, INST_LIBDIR and INST_LUADIR.

LUA        ?= lua5.4
PKG_CONFIG ?= pkg-config
# the interpreter's name (luarocks passes a path), its pkg-config package
# (lua5.1 ... lua5.4, luajit) and the Lua version its modules live under
LUA_NAME   := $(notdir $(LUA))
LUA_PC     ?= $(LUA_NAME)
LUA_VERSION ?= $(if $(filter luajit%,$(LUA_NAME)),5.1,$(patsubst lua%,%,$(LUA_NAME)))
LUA_LIBS   ?= $(shell $(PKG_CONFIG) --libs $(LUA_PC) 2>/dev/null || echo -l$(LUA_PC))
ALL_LUAS    = lua5.1 lua5.2 lua5.3 lua5.4 luajit
PREFIX     ?= /usr/local
INST_LIBDIR ?= $(PREFIX)/lib/lua/$(LUA_VERSION)
INST_LUADIR ?= $(PREFIX)/share/lua/$(LUA_VERSION)
INST_INCDIR ?= $(PREFIX)/include
INST_PCDIR  ?= $(PREFIX)/lib/pkgconfig
INST_BINDIR ?= $(PREFIX)/bin
# where linalg.pc says core.so is (the rock: PC_LUADIR/<version>/linalg)
PC_MODDIR   ?= $(if $(PC_LUADIR),$(PC_LUADIR)/$(LUA_VERSION)/linalg,$(INST_LIBDIR)/linalg)
LUA_INCDIR ?= $(patsubst -I%,%,$(firstword $(filter -I%,$(shell $(PKG_CONFIG) --cflags $(LUA_PC) 2>/dev/null))))
BLAS_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags openblas lapacke 2>/dev/null)
BLAS_LIBS  ?= $(shell $(PKG_CONFIG) --libs openblas lapacke 2>/dev/null || echo -lopenblas -llapacke)
CFLAGS     ?= -O2
LIBFLAG    ?= -shared
# -ffp-contract=off: no fused multiply-add, so seeded random numbers are
# bit-identical across compilers and machines.
WARN       = -std=c99 -Wall -Wextra -pedantic -Wmissing-prototypes -Wshadow
# -ffile-prefix-map: the objects (and their debug information, with -g)
# name no build folder, so a packed binary rock names none either.
PREFIXMAP  = -ffile-prefix-map=$(CURDIR)=.
ALLCFLAGS  = $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden -ffp-contract=off $(PREFIXMAP) \
             -I$(LUA_INCDIR) $(BLAS_CFLAGS)

# src/*.c: the binding layer (mpi.c is the separate module linalg.mpi);
# src/kernels/*.c: the Lua-free kernels (see src/README.md). sortshort.c
# first: it takes a third of a build's compile time, so under -j it starts
# while the rest compile beside it.
KSRC = src/kernels/sortshort.c $(filter-out src/kernels/sortshort.c,$(sort $(wildcard src/kernels/*.c)))
SRC  = $(sort $(filter-out src/mpi.c,$(wildcard src/*.c))) $(KSRC)
BUILD ?= $(if $(filter lua5.4,$(LUA_NAME)),build,build-$(LUA_NAME))
# the Lua headers the objects were compiled against: another LUA_INCDIR
# into the same folder rebuilds them
LUASTAMP = $(BUILD)/lua-incdir
$(shell mkdir -p $(BUILD) && { test "$$(cat $(LUASTAMP) 2>/dev/null)" = "$(LUA_INCDIR)" || echo "$(LUA_INCDIR)" > $(LUASTAMP); })
# The kernels include no Lua header, so one set of their objects serves
# every Lua's build (make test builds five, check-install four): they live
# in build-kernels/, in a folder named by the compiler and flags that made
# them (a sanitizer build gets its own).
# A build folder's stamp of that key relinks its module when the flags
# change (back) and recompiles its binding objects with them.
KEY    := $(shell printf '%s' '$(subst ','',$(CC) $(CFLAGS) $(BLAS_CFLAGS) $(SANITIZE))' | cksum | cut -d' ' -f1)
KBUILD ?= build-kernels/$(KEY)
KEYSTAMP = $(BUILD)/kernel-key
$(shell { test "$$(cat $(KEYSTAMP) 2>/dev/null)" = "$(KEY)" || echo "$(KEY)" > $(KEYSTAMP); })
KOBJ = $(KSRC:src/kernels/%.c=$(KBUILD)/%.o)
OBJ  = $(KOBJ) $(patsubst src/%.c,$(BUILD)/obj/%.o,$(filter-out $(KSRC),$(SRC)))
KHDR = $(wildcard src/kernels/*.h)
KALLCFLAGS = $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden -ffp-contract=off $(PREFIXMAP) $(BLAS_CFLAGS)
# the kernels' unit tests: one C program per spec/kernels/*.c, linked with
# the kernels and BLAS only (no Lua)
KTESTS = $(patsubst spec/kernels/%.c,$(BUILD)/ktest/%,$(wildcard spec/kernels/*.c))
HDR  = $(wildcard src/*.h) $(wildcard src/kernels/*.h)
MOD  = $(BUILD)/linalg/core.so
LINALG_VERSION = $(shell sed -n 's/^\#define LINALG_VERSION "\(.*\)"/\1/p' src/linalg.h)
HOST = $(BUILD)/host
ALLOC = $(BUILD)/alloc
THREADS = $(BUILD)/threads
# bin/linalg-repl's line editor, built where GNU readline's headers are
RL_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags readline 2>/dev/null)
RL_LIBS   ?= $(shell $(PKG_CONFIG) --libs readline 2>/dev/null || echo -lreadline)
HAVE_RL   ?= $(shell $(PKG_CONFIG) --exists readline 2>/dev/null || test -e /usr/include/readline/readline.h && echo yes)
RLMOD     = $(BUILD)/linalg/readline.so
CAPI = $(BUILD)/capi

# the sub-makes that build run a job per core (the build of one Lua was a
# minute serially, most of it kernels/sortshort.c at -O3), unless make was
# given its own -j
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
JOBSFLAG = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(JOBS))

# make ktest: the kernels' C unit tests alone
.PHONY: dist check-hosts print-builddir ktest all deps demo test test-lua bench mpi test-mpi install-mpi bench-mpi install uninstall clean check-install check-oom-host check-asan valgrind fuzz repl doc lint env

all: $(MOD) $(if $(HAVE_RL),$(RLMOD))

deps:
	@sh tools/deps.sh

# Column copies: vector loops, never glibc's memcpy (kernels/copy.c says why).
$(KBUILD)/copy.o: KALLCFLAGS += -O3 -fno-tree-loop-distribute-patterns
# Arithmetic progressions (arange, linspace): vectorized at -O3.
$(KBUILD)/fill.o: KALLCFLAGS += -O3
# Sort keys made and turned back into values: vectorized at -O3.
$(KBUILD)/sort.o: KALLCFLAGS += -O3
# sortshort.c too, except in check-asan's build (SANITIZE): ASan and UBSan
# at -O3 took 7.5 minutes over its straight-line networks, 48 s at that
# build's -O1 (the same intrinsics either way)
$(KBUILD)/sortshort.o: KALLCFLAGS += $(if $(SANITIZE),,-O3)
$(KBUILD)/colarg.o: KALLCFLAGS += -O3
# The softmax exp loop only vectorizes when comparisons may be if-converted;
# nothing here reads floating-point exception flags, and NaN/Inf results
# are unchanged.
$(KBUILD)/attention.o: KALLCFLAGS += -O3 -fno-trapping-math
$(KBUILD)/attention_bwd.o: KALLCFLAGS += -O3 -fno-trapping-math
# Elementwise math: without errno, the loops call glibc's SIMD libm (libmvec).
$(KBUILD)/elementwise.o: KALLCFLAGS += -O3 -fno-math-errno -fno-trapping-math
# The same for the arithmetic loops (pow: libmvec's).
$(KBUILD)/arith.o: KALLCFLAGS += -O3 -fno-math-errno -fno-trapping-math
# Reductions: the short loops over a strip of rows (its first column, the
# zero test, square roots for std) vectorized with a scalar tail, which
# -O2's cost model declines (max(A, 2) of 300000 x 3: 335 -> 160 us);
# no floating-point sum is reordered; nothing here reads errno.
$(KBUILD)/reduce.o: KALLCFLAGS += -fno-math-errno -fvect-cost-model=dynamic
# vecmath's loops (exp, log, tanh, pow) if-convert only with these; PRE
# would split them on the clamps of exp's argument
$(KBUILD)/vecmath.o: KALLCFLAGS += -O3 -fno-math-errno -fno-trapping-math -fno-tree-pre -fno-unswitch-loops
# Training's elementwise loops (softmax backward, clipping): vectorized at -O3;
# no reassociation, so the results are those of -O2.
$(KBUILD)/train.o: KALLCFLAGS += -O3
# float64 <-> float32 conversion: whole vectors at -O3 (a cast rounds the same)
$(KBUILD)/convert.o: KALLCFLAGS += -O3

$(BUILD)/obj/%.o: src/%.c $(HDR) $(LUASTAMP) $(KEYSTAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALLCFLAGS) -c $< -o $@

# written under another name and moved, so two builds sharing the folder
# never link a half-written object
$(KBUILD)/%.o: src/kernels/%.c $(KHDR)
	@mkdir -p $(KBUILD)
	$(CC) $(KALLCFLAGS) -c $< -o $@.$$$$ && mv -f $@.$$$$ $@

# -z nodelete: the module stays mapped after the package library unloads it
# at lua_close, as LuaJIT then still runs the finalizers (storage owners) of
# what finalizers made there
$(MOD): $(OBJ)
	@mkdir -p $(BUILD)/linalg
	$(CC) $(LIBFLAG) -Wl,-z,nodelete -o $@ $(OBJ) $(BLAS_LIBS) -lpthread -lm

$(RLMOD): bin/lreadline.c src/compat.h $(LUASTAMP)
	@mkdir -p $(BUILD)/linalg
	$(CC) $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden $(PREFIXMAP) -I$(LUA_INCDIR) $(RL_CFLAGS) $(LIBFLAG) \
	  -o $@ bin/lreadline.c $(RL_LIBS) -lpthread

$(HOST): examples/host.c src/linalg.h $(MOD)
	$(CC) $(CFLAGS) $(WARN) -Isrc -I$(LUA_INCDIR) -o $@ examples/host.c \
	  $(OBJ) $(LUA_LIBS) $(BLAS_LIBS) -lpthread -ldl -lm

$(ALLOC): spec/alloc/alloc.c src/linalg.h $(MOD)
	$(CC) $(CFLAGS) $(WARN) -Isrc -I$(LUA_INCDIR) -o $@ spec/alloc/alloc.c \
	  $(OBJ) $(LUA_LIBS) $(BLAS_LIBS) -lpthread -ldl -lm

$(THREADS): spec/threads/threads.c src/linalg.h $(MOD)
	$(CC) $(CFLAGS) $(WARN) -Isrc -I$(LUA_INCDIR) -o $@ spec/threads/threads.c \
	  $(OBJ) $(LUA_LIBS) $(BLAS_LIBS) -lpthread -ldl -lm

$(CAPI): spec/capi/capi.c src/linalg.h $(MOD)
	$(CC) $(CFLAGS) $(WARN) -Isrc -I$(LUA_INCDIR) -o $@ spec/capi/capi.c \
	  $(OBJ) $(LUA_LIBS) $(BLAS_LIBS) -lpthread -ldl -lm

$(BUILD)/ktest/%: spec/kernels/%.c $(wildcard spec/kernels/*.h) src/kernels/kernels.h $(KOBJ) $(KEYSTAMP)
	@mkdir -p $(BUILD)/ktest
	$(CC) $(CFLAGS) $(WARN) -Isrc/kernels $(BLAS_CFLAGS) -o $@ $< $(KOBJ) $(BLAS_LIBS) -lpthread -lm

# runs every kernel test program (part of make test)
ktest: $(KTESTS)
	@for t in $(KTESTS); do OPENBLAS_NUM_THREADS=1 $$t || exit 1; done

demo: deps
	@$(MAKE) --no-print-directory $(JOBSFLAG) all
	@for f in examples/*.lua; do echo "== $$f"; \
	  LUA_PATH="./lua/?.lua;./lua/?/init.lua;;" LUA_CPATH="./$(BUILD)/?.so;;" $(LUA) $$f || exit 1; done

# make test: every Lua of TEST_LUAS (all five, or the one LUA=... names),
# then the kernels' tests and the MPI runs (on lua5.4) once. Each Lua runs
# the whole busted suite and the C harnesses built against it (test-lua),
# but for all five, 5.1, 5.2 and 5.3 leave out the tests tagged #heavy:
# kernels' bits against plain-Lua references over large inputs (the same
# C under every Lua) and two GiB-sized matrices (whose storage paths
# LuaJIT's run covers for the 5.1 ABI), which 5.4 and LuaJIT (and
# check-asan) run; they were 4 of CI's 60 minutes on those three.
# make test-lua LUA=lua5.1 runs them too.
TEST_LUAS ?= $(if $(filter command line environment,$(origin LUA)),$(LUA_NAME),$(ALL_LUAS))
HEAVY_ON ?= lua5.4 luajit
test: deps
	@for l in $(TEST_LUAS); do echo "== make test-lua LUA=$$l"; \
	  skip=; [ "$(words $(TEST_LUAS))" -gt 1 ] && case " $(HEAVY_ON) " in *" $$l "*) ;; *) skip=--exclude-tags=heavy;; esac; \
	  $(MAKE) --no-print-directory test-lua LUA=$$l BUSTED_ARGS=$$skip || exit 1; done
	@$(MAKE) --no-print-directory $(JOBSFLAG) ktest
	@if command -v lighttpd >/dev/null && command -v curl >/dev/null; then sh tools/check-oom-host.sh; \
	  else echo "check-oom-host: skipped (no lighttpd or curl: make check-oom-host installs them)"; fi
	@$(MAKE) --no-print-directory test-mpi LUA=lua5.4

# one Lua: its module, the busted suite under it, the C harnesses linked
# with it (run from its build folder: ../lua and ../spec/fixtures)
test-lua: deps
	@$(MAKE) --no-print-directory $(JOBSFLAG) all $(HOST) $(ALLOC) $(THREADS) $(CAPI)
	busted --lua=$(LUA) --cpath="./$(BUILD)/?.so" $(BUSTED_ARGS)
	cd $(BUILD) && LUA_PATH="../lua/?.lua;../lua/?/init.lua;;" LUA_CPATH="./?.so;;" ./host
	cd $(BUILD) && OPENBLAS_NUM_THREADS=1 ./alloc
	cd $(BUILD) && ./threads
	cd $(BUILD) && ./capi

# linalg in lighttpd (mod_magnet, Lua 5.4) under a memory limit with two
# OpenBLAS threads: products that do not fit fail, the server stays up
# (OpenBLAS's threaded drivers exit(1) when their malloc fails). About 1 s.
check-oom-host:
	@sh tools/deps.sh lighttpd lighttpd-modules-lua curl
	@$(MAKE) --no-print-directory $(JOBSFLAG) all
	sh tools/check-oom-host.sh

# an interactive session with la loaded; expressions print themselves
repl: deps
	@$(MAKE) --no-print-directory $(JOBSFLAG) all
	@$(LUA) bin/linalg-repl

# static analysis of the C sources; any finding fails
lint:
	@sh tools/deps.sh cppcheck
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance --std=c99 \
	  -I src -I $(LUA_INCDIR) --suppress=missingIncludeSystem --suppress=toomanyconfigs src/*.c src/kernels/*.c

# the HTML reference (LDoc, markdown by lua-discount) into doc/, then
# tools/check-doc.lua: no unescaped placeholders, every public function
# documented with its parameters
doc: all
	@sh tools/deps.sh lua-ldoc lua-discount
	@mkdir -p $(BUILD)
	ldoc --fatalwarnings -c config.ld . > $(BUILD)/ldoc.log 2>&1; rc=$$?; cat $(BUILD)/ldoc.log; test $$rc = 0
	@! grep -qE '^[^ ]+:[0-9]+: |error|failed' $(BUILD)/ldoc.log || { echo "doc: ldoc warned (above)"; exit 1; }
	@cat ldoc/extra.css >> doc/ldoc.css
	@$(LUA) tools/check-doc.lua

# (the luaversions suite also needs linalg built for LuaJIT; the peers are
# Debian's NumPy, SciPy and PyTorch for /usr/bin/python3)
bench: deps
	@sh tools/deps.sh python3-numpy python3-scipy python3-torch
	@$(MAKE) --no-print-directory $(JOBSFLAG) all
	@if command -v luajit >/dev/null; then $(MAKE) --no-print-directory $(JOBSFLAG) all LUA=luajit; fi
	@sh bench/run.sh
	@$(MAKE) --no-print-directory bench-mpi

# The module (and linalg.mpi where mpicc built it), the Lua front and the
# reference text help() reads; the C header and linalg.pc for hosts (cc
# host.c $(pkg-config --cflags --libs linalg lua5.4), or the LUA's package);
# bin/linalg-repl (skipped with INST_BINDIR= : the rock installs it as a
# script of its own). Nothing installed names a folder absolutely: linalg.pc
# finds the header and the module from its own folder (${pcfiledir}) and
# linalg-repl finds the modules from its own, so the tree may move.
# $(call relto,FROM,TO): the path of folder TO relative to folder FROM
relto = $(shell realpath -m -s --relative-to='$(1)' '$(2)')
# the module folders as linalg-repl finds them from its own
REPL_LUADIR = $(if $(INST_BINDIR),$(call relto,$(INST_BINDIR),$(INST_LUADIR)))
REPL_LIBDIR = $(if $(INST_BINDIR),$(call relto,$(INST_BINDIR),$(INST_LIBDIR)))
install: all
	install -d $(DESTDIR)$(INST_LIBDIR)/linalg $(DESTDIR)$(INST_LUADIR)/linalg \
	  $(DESTDIR)$(INST_INCDIR) $(DESTDIR)$(INST_PCDIR)
	install -m 755 $(MOD) $(DESTDIR)$(INST_LIBDIR)/linalg/core.so
	$(if $(wildcard $(RLMOD)),install -m 755 $(RLMOD) $(DESTDIR)$(INST_LIBDIR)/linalg/readline.so)
	$(if $(wildcard $(MPIMOD)),install -m 755 $(MPIMOD) $(DESTDIR)$(INST_LIBDIR)/linalg/mpi.so)
	install -m 644 lua/linalg/*.lua ldoc/core.luadoc $(DESTDIR)$(INST_LUADIR)/linalg/
	install -m 644 src/linalg.h $(DESTDIR)$(INST_INCDIR)/linalg.h
	sed -e 's|@INCDIR@|$${pcfiledir}/$(call relto,$(INST_PCDIR),$(INST_INCDIR))|' \
	  -e 's|@MODDIR@|$${pcfiledir}/$(call relto,$(INST_PCDIR),$(PC_MODDIR))|' \
	  -e 's|@VERSION@|$(LINALG_VERSION)|' -e 's|@LUA@|$(LUA_PC)|g' tools/linalg.pc.in > $(DESTDIR)$(INST_PCDIR)/linalg.pc
	if [ -n "$(INST_BINDIR)" ]; then install -d $(DESTDIR)$(INST_BINDIR) && \
	  sed -e '1s|^#!.*|#!/usr/bin/env $(LUA_NAME)|' \
	  -e 's|^local INSTALLED = nil|local INSTALLED = {lua = "$(REPL_LUADIR)", lib = "$(REPL_LIBDIR)"}|' \
	  bin/linalg-repl > $(DESTDIR)$(INST_BINDIR)/linalg-repl && chmod 755 $(DESTDIR)$(INST_BINDIR)/linalg-repl; fi

uninstall:
	rm -rf $(DESTDIR)$(INST_LIBDIR)/linalg $(DESTDIR)$(INST_LUADIR)/linalg
	rm -f $(DESTDIR)$(INST_INCDIR)/linalg.h $(DESTDIR)$(INST_PCDIR)/linalg.pc $(DESTDIR)$(INST_BINDIR)/linalg-repl

# make dist: dist/linalg-<version>-1.src.rock, what `luarocks install` builds
# offline: rockspec/linalg-<version>-1.rockspec and linalg-<version>.tar.gz,
# the files git tracks at DIST_REF (git archive), under linalg-<version>/.
# The rockspec's source.url names the tarball inside the rock.
DIST_REF ?= HEAD
DISTDIR  ?= dist
DISTNAME  = linalg-$(LINALG_VERSION)
DISTROCK  = $(DISTDIR)/$(DISTNAME)-1.src.rock
dist:
	@git rev-parse --verify -q $(DIST_REF) >/dev/null 2>&1 || { echo "make dist: needs a git checkout (the rock is git archive of $(DIST_REF))"; exit 1; }
	@test -f rockspec/$(DISTNAME)-1.rockspec || { echo "make dist: no rockspec/$(DISTNAME)-1.rockspec for LINALG_VERSION $(LINALG_VERSION)"; exit 1; }
	@git diff --quiet $(DIST_REF) -- || echo "make dist: the rock holds $(DIST_REF); changes not committed are left out"
	@rm -rf $(DISTDIR)/.stage && mkdir -p $(DISTDIR)/.stage
	git archive --format=tar.gz --prefix=$(DISTNAME)/ -o $(DISTDIR)/.stage/$(DISTNAME).tar.gz $(DIST_REF)
	git show $(DIST_REF):rockspec/$(DISTNAME)-1.rockspec > $(DISTDIR)/.stage/$(DISTNAME)-1.rockspec
	rm -f $(DISTROCK)
	cd $(DISTDIR)/.stage && zip -q ../$(DISTNAME)-1.src.rock $(DISTNAME)-1.rockspec $(DISTNAME).tar.gz
	@rm -rf $(DISTDIR)/.stage
	@echo "make dist: $(DISTROCK)"

# the exports that let $(LUA) (and busted) find this checkout's modules,
# under the names that Lua reads (LUA_PATH_5_4 ..., LUA_PATH for 5.1 and
# LuaJIT):  eval "$(make -s env LUA=lua5.3)"; lua5.3 myscript.lua
ENV_SUFFIX = $(if $(filter 5.1,$(LUA_VERSION)),,_$(subst .,_,$(LUA_VERSION)))
env: all
	@echo "export LUA_PATH$(ENV_SUFFIX)='$(CURDIR)/lua/?.lua;$(CURDIR)/lua/?/init.lua;;'"
	@echo "export LUA_CPATH$(ENV_SUFFIX)='$(CURDIR)/$(BUILD)/?.so;;'"

clean:
	rm -rf build build-asan build-fuzz build-kernels $(addprefix build-,$(filter-out lua5.4,$(ALL_LUAS)))

# The whole suite and the host example under AddressSanitizer and UBSan:
# the module is built instrumented into build-asan/ and lua5.4 runs with
# libasan preloaded; any report fails the target. The kernel tests
# (make ktest) build into build-asan/ktest and run first. The threads
# harness runs without ASan's quarantine: a child forked while another
# thread held the quarantine's lock hung at its first thread exit (gdb:
# Quarantine::Drain in AsanThread::Destroy), 4 to 11 children of 40.
# intercept_tls_get_addr=0: GCC 12's runtime takes a dynamic TLS block
# (core.so and OpenBLAS are dlopen'd, so theirs are) whose address is 16
# past a page boundary for a pre-2.25 glibc header and reads the two words
# before it as a range; LeakSanitizer's tracer then died at exit ("Tracer
# caught signal 11") now and then, once in some thirty CI runs. glibc's own
# pointers to those blocks are still scanned, so their contents count as
# reachable: the whole suite reports no leak with it.
SAN = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
ASAN_RUN = allocator_may_return_null=1:detect_leaks=1:intercept_tls_get_addr=0
check-asan: deps
	@$(MAKE) --no-print-directory $(JOBSFLAG) BUILD=build-asan CFLAGS="$(SAN)" LIBFLAG="-shared $(SAN)" SANITIZE=1 \
	  all build-asan/host build-asan/alloc build-asan/threads build-asan/capi ktest
	ASAN_OPTIONS=$(ASAN_RUN) \
	  LD_PRELOAD="$$($(CC) -print-file-name=libasan.so) $$($(CC) -print-file-name=libubsan.so)" \
	  busted --lua=$(LUA) --cpath="./build-asan/?.so"
	cd build-asan && export ASAN_OPTIONS=$(ASAN_RUN) \
	  LUA_PATH="../lua/?.lua;../lua/?/init.lua;;" LUA_CPATH="./?.so;;" && ./host && \
	  OPENBLAS_NUM_THREADS=1 ./alloc > alloc.log && tail -1 alloc.log && \
	  ASAN_OPTIONS=$$ASAN_OPTIONS:quarantine_size_mb=0 ./threads && ./capi

# luarocks make into a temporary tree and make install into a temporary
# prefix, each followed by a smoke test from outside the checkout; then the
# release (tools/check-dist.sh): make dist's .src.rock installed offline, a
# binary rock packed from it installed into another tree, a make install
# tree moved elsewhere.
check-install: 
	@sh tools/deps.sh luarocks zip unzip
	@sh tools/check-install.sh
	@sh tools/check-dist.sh

# The suite under valgrind memcheck: no invalid access, nothing definitely
# lost (OpenBLAS keeps its buffers for the process: "still reachable").
# Tests tagged #heavy are left out: their time is a plain-Lua reference
# walking large inputs, or GiB-sized matrices (half of the suite's time);
# every spec file still runs, and make test and check-asan run the heavy
# tests. memcheck is one thread: the spec files run in $(JOBS) shards at
# once (tools/valgrind.sh, dealt by tools/valgrind.weights; the whole suite
# in one took CI past 55 minutes).
valgrind: deps
	@sh tools/deps.sh valgrind
	@$(MAKE) --no-print-directory $(JOBSFLAG) all
	@sh tools/valgrind.sh $(JOBS)

# libFuzzer: linalg calls decoded from fuzzed bytes (spec/fuzz/fuzz.c) under
# ASan and UBSan for FUZZ_TIME seconds; new inputs go to build-fuzz/corpus,
# the seed corpus is spec/fuzz/corpus. The whole log is build-fuzz/fuzz.log;
# a finding leaves build-fuzz/{crash,leak,timeout,oom}-* (the previous run's
# are moved to build-fuzz/old). LINALG_FUZZ_PRINT=1 ./build-fuzz/fuzz FILE
# prints the Lua program an input decodes to; LINALG_FUZZ_CONTRACT=1 make fuzz
# also fails on errors whose message does not start with "linalg.".
FUZZ_TIME ?= 60
FUZZ_CC ?= clang
FUZZFLAGS = -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# the sources compile a file a job (one clang call for all took 90 s),
# into a folder named by the compiler, flags and Lua headers
FUZZKEY := $(shell printf '%s' '$(subst ','',$(FUZZ_CC) $(FUZZFLAGS) $(LUA_INCDIR))' | cksum | cut -d' ' -f1)
FUZZOBJ = $(patsubst src/%.c,build-fuzz/obj/$(FUZZKEY)/%.o,$(KSRC) $(filter-out $(KSRC),$(SRC)))
build-fuzz/obj/$(FUZZKEY)/%.o: src/%.c $(HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZFLAGS) -std=c99 -Isrc -I$(LUA_INCDIR) $(BLAS_CFLAGS) -c $< -o $@
build-fuzz/fuzz: spec/fuzz/fuzz.c $(FUZZOBJ) FORCE
	$(FUZZ_CC) $(FUZZFLAGS) -std=c99 -Isrc -I$(LUA_INCDIR) $(BLAS_CFLAGS) -o $@ \
	  spec/fuzz/fuzz.c $(FUZZOBJ) $(LUA_LIBS) $(BLAS_LIBS) -lpthread -lm
fuzz: deps
	@sh tools/deps.sh clang libclang-rt-14-dev
	@mkdir -p build-fuzz/corpus build-fuzz/old
	@for f in build-fuzz/crash-* build-fuzz/leak-* build-fuzz/timeout-* build-fuzz/oom-*; do \
	  if [ -e "$$f" ]; then mv "$$f" build-fuzz/old/; fi; done
	@$(MAKE) --no-print-directory $(JOBSFLAG) build-fuzz/fuzz
	OPENBLAS_NUM_THREADS=1 ./build-fuzz/fuzz -max_total_time=$(FUZZ_TIME) -timeout=20 \
	  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix=build-fuzz/ \
	  build-fuzz/corpus spec/fuzz/corpus > build-fuzz/fuzz.log 2>&1; rc=$$?; \
	  grep -E "^#[0-9]+[[:space:]]+(DONE|INITED)|stat::number_of_executed_units|ERROR|SUMMARY|oracle|Done|^artifact" \
	    build-fuzz/fuzz.log; \
	  for f in build-fuzz/crash-* build-fuzz/leak-* build-fuzz/timeout-* build-fuzz/oom-*; do \
	    if [ -e "$$f" ]; then echo "fuzz: finding $$f (log: build-fuzz/fuzz.log)"; rc=1; fi; done; \
	  exit $$rc

# ------------------------------------------------------------ linalg.mpi
# Optional: built with mpicc when it is on PATH (Debian: libopenmpi-dev,
# openmpi-bin). test-mpi (part of make test) installs them and runs the MPI
# specs on 1, 2, 3 and 4 ranks, each run under a timeout; as root Open MPI
# needs the two OMPI_ALLOW_RUN_AS_ROOT variables.
MPICC   ?= mpicc
MPIMOD   = $(BUILD)/linalg/mpi.so
MPIHOST  = $(BUILD)/mpihost
MPIFIN   = $(BUILD)/mpifinalized
HAVE_MPICC := $(shell command -v $(MPICC) 2>/dev/null)
MPIENV   = OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1 \
           LUA_PATH="./lua/?.lua;./lua/?/init.lua;;" LUA_CPATH="./$(BUILD)/?.so;;"
MPIRUN   = $(MPIENV) timeout 180 mpirun --oversubscribe -x LINALG_MPI_TMP -x OPENBLAS_NUM_THREADS

all: $(if $(HAVE_MPICC),$(MPIMOD))

mpi: $(MPIMOD)

$(MPIMOD): src/mpi.c src/kernels/tsqr.c src/kernels/tsqr_gen.h src/kernels/tsqr_decl_gen.h src/kernels/kernels.h
	@mkdir -p $(BUILD)/linalg
	$(MPICC) $(ALLCFLAGS) $(LIBFLAG) -o $@ src/mpi.c src/kernels/tsqr.c $(BLAS_LIBS) -lm

# the C hosts of spec/mpi: host.c -> $(BUILD)/mpihost, finalized.c -> $(BUILD)/mpifinalized
$(BUILD)/mpi%: spec/mpi/%.c $(MPIMOD)
	$(MPICC) $(CFLAGS) $(WARN) -I$(LUA_INCDIR) -o $@ $< \
	  $(LUA_LIBS) -ldl -lm

test-mpi:
	@sh tools/deps.sh libopenmpi-dev openmpi-bin
	@$(MAKE) --no-print-directory $(JOBSFLAG) all $(MPIMOD) $(MPIHOST) $(MPIFIN)
	@export LINALG_MPI_TMP=$$(mktemp -d); trap 'rm -rf "$$LINALG_MPI_TMP"' EXIT; \
	for np in 1 2 3 4; do \
	  echo "== linalg.mpi specs on $$np ranks"; \
	  $(MPIRUN) -np $$np busted --lua=$(LUA) --cpath="./$(BUILD)/?.so" -p ranks spec/mpi || exit 1; \
	  echo "== host-initialized MPI on $$np ranks"; \
	  $(MPIRUN) -np $$np ./$(MPIHOST) || exit 1; \
	done; \
	echo "== calls after the host finalized MPI, on 2 ranks"; \
	$(MPIRUN) -np 2 ./$(MPIFIN) || exit 1; \
	echo "== examples/mpi_lstsq.lua on 3 ranks"; \
	$(MPIRUN) -np 3 $(LUA) examples/mpi_lstsq.lua || exit 1; \
	echo "== exit without finalize (end of script, os.exit)"; \
	$(MPIRUN) -np 2 $(LUA) spec/mpi/exit.lua || exit 1; \
	$(MPIRUN) -np 2 $(LUA) spec/mpi/exit.lua os.exit || exit 1; \
	echo "== a rank leaving while the others wait (each run under timeout)"; \
	$(MPIENV) sh spec/mpi/dies.sh $(LUA) || exit 1; \
	echo "linalg.mpi: all MPI runs passed"

# the distributed least-squares benchmark alone (bench/mpi.sh; also the end of make bench)
bench-mpi: deps
	@sh tools/deps.sh python3-mpi4py python3-numpy libscalapack-openmpi-dev
	@$(MAKE) --no-print-directory $(JOBSFLAG) all $(MPIMOD)
	@sh bench/mpi.sh

install-mpi: $(MPIMOD)
	install -d $(DESTDIR)$(INST_LIBDIR)/linalg
	install -m 755 $(MPIMOD) $(DESTDIR)$(INST_LIBDIR)/linalg/mpi.so

# the folder holding linalg/core.so for $(LUA) (tools/check-hosts.sh asks)
print-builddir:
	@echo $(BUILD)

# linalg inside real hosts (tools/check-hosts.sh): Neovim and nginx's lua
# module (LuaJIT), HAProxy (5.3), mpv (5.2), lighttpd's mod_magnet (5.4).
# OpenResty's LuaJIT (luajit2) replaces Debian's luajit for nginx's module;
# both provide the luajit command and pkg-config luajit.
HOST_PKGS = neovim nginx libnginx-mod-http-lua luajit2 libluajit2-5.1-dev haproxy mpv \
            lighttpd lighttpd-modules-lua curl python3
check-hosts: deps
	@sh tools/deps.sh $(HOST_PKGS)
	@sh tools/check-hosts.sh

# a prerequisite that is never up to date
FORCE:
