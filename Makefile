# linalg: Lua 5.4 dense linear algebra on OpenBLAS and LAPACKE.
#   make demo    install missing packages, build, run the examples
#   make test    install missing packages, build, run specs and the host test
#   make bench   linalg next to NumPy and raw OpenBLAS/LAPACKE
#   make install PREFIX=/usr/local [DESTDIR=...]
# luarocks passes CFLAGS, LIBFLAG, LUA_INCDIR, INST_LIBDIR and INST_LUADIR.

LUA        ?= lua5.4
LUA_VERSION = 5.4
PKG_CONFIG ?= pkg-config
PREFIX     ?= /usr/local
INST_LIBDIR ?= $(PREFIX)/lib/lua/$(LUA_VERSION)
INST_LUADIR ?= $(PREFIX)/share/lua/$(LUA_VERSION)
LUA_INCDIR ?= $(shell $(PKG_CONFIG) --variable=includedir lua$(LUA_VERSION) 2>/dev/null)/lua$(LUA_VERSION)
BLAS_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags openblas lapacke 2>/dev/null)
BLAS_LIBS  ?= $(shell $(PKG_CONFIG) --libs openblas lapacke 2>/dev/null || echo -lopenblas -llapacke)
CFLAGS     ?= -O2
LIBFLAG    ?= -shared
# -ffp-contract=off: no fused multiply-add, so seeded random numbers are
# bit-identical across compilers and machines.
WARN       = -std=c99 -Wall -Wextra -pedantic -Wmissing-prototypes -Wshadow
ALLCFLAGS  = $(CFLAGS) $(WARN) -fPIC -fvisibility=hidden -ffp-contract=off \
             -I$(LUA_INCDIR) $(BLAS_CFLAGS)

SRC  = src/lcore.c src/larith.c src/llapack.c src/llstsq.c src/lattn.c \
       src/la_kernels.c src/la_rng.c src/la_gs.c src/la_nnls.c src/la_tsqr.c \
       src/la_attn.c
OBJ  = $(SRC:src/%.c=build/obj/%.o)
HDR  = src/linalg.h src/lbind.h src/la_kernels.h
MOD  = build/linalg/core.so
HOST = build/host

.PHONY: all deps demo test bench install uninstall clean check-install

all: $(MOD)

deps:
	@sh tools/deps.sh

# The softmax exp loop only vectorizes when comparisons may be if-converted;
# nothing here reads floating-point exception flags, and NaN/Inf results
# are unchanged.
build/obj/la_attn.o: ALLCFLAGS += -O3 -fno-trapping-math

build/obj/%.o: src/%.c $(HDR)
	@mkdir -p build/obj
	$(CC) $(ALLCFLAGS) -c $< -o $@

$(MOD): $(OBJ)
	@mkdir -p build/linalg
	$(CC) $(LIBFLAG) -o $@ $(OBJ) $(BLAS_LIBS) -lpthread -lm

$(HOST): examples/host.c src/linalg.h $(MOD)
	$(CC) $(CFLAGS) $(WARN) -Isrc -I$(LUA_INCDIR) -o $@ examples/host.c \
	  build/obj/*.o $(shell $(PKG_CONFIG) --libs lua$(LUA_VERSION)) $(BLAS_LIBS) -lpthread -ldl -lm

demo: deps
	@$(MAKE) --no-print-directory all
	@for f in examples/*.lua; do echo "== $$f"; \
	  LUA_PATH="./lua/?.lua;./lua/?/init.lua;;" LUA_CPATH="./build/?.so;;" $(LUA) $$f || exit 1; done

test: deps
	@$(MAKE) --no-print-directory all $(HOST)
	busted --lua=$(LUA)
	cd build && LUA_PATH="../lua/?.lua;../lua/?/init.lua;;" LUA_CPATH="./?.so;;" ./host

bench: deps
	@$(MAKE) --no-print-directory all
	@sh bench/run.sh

install: $(MOD)
	install -d $(DESTDIR)$(INST_LIBDIR)/linalg $(DESTDIR)$(INST_LUADIR)/linalg
	install -m 755 $(MOD) $(DESTDIR)$(INST_LIBDIR)/linalg/core.so
	install -m 644 lua/linalg/*.lua $(DESTDIR)$(INST_LUADIR)/linalg/

uninstall:
	rm -rf $(DESTDIR)$(INST_LIBDIR)/linalg $(DESTDIR)$(INST_LUADIR)/linalg

clean:
	rm -rf build

# luarocks make into a temporary tree and make install into a temporary
# prefix, each followed by a smoke test from outside the checkout.
check-install: 
	@sh tools/deps.sh luarocks
	@sh tools/check-install.sh
