/*
** module.c: luaopen_linalg_core, the one file that knows every part. It
** makes the module table and lets each binding file register its
** functions into it, in this order: the matrix type first (it creates the
** metatable every other function carries as upvalue 1).
*/
#include "helpers.h"

LINALG_API int luaopen_linalg_core(lua_State *L) {
  int running = la_compat_version(L);      /* 0: 5.1 and LuaJIT cannot say */
  if (running != 0 && running != LUA_VERSION_NUM)
    return luaL_error(L, "linalg.core was built for %s but runs in Lua %d.%d: build it for this "
                      "Lua (make LUA=lua%d.%d)", LA_LUA_BUILT, running / 100, running % 100,
                      running / 100, running % 100);
  la_initext(L);          /* storage outside the heap (helpers.c) */
  lua_newtable(L);
  la_open_matrix(L);        /* matrix.c: the type, access, views, printing */
  la_open_print(L);         /* print.c: __tostring, printoptions */
  la_open_construct(L);     /* construct.c: matrix, zeros, eye, rand, ... */
  la_open_shape(L);         /* shape.c: ranges, full, tile, flip, slice, ... */
  la_open_arith(L);         /* arith.c: operators, products, map */
  la_open_reduce(L);        /* reduce.c: sum, min, var, cumsum, sort, ... */
  la_open_measures(L);      /* measures.c: norms, rank, cond, cosine, allclose */
  la_open_elementwise(L);   /* elementwise.c: exp, maximum, where, comparisons */
  la_open_solve(L);         /* solve.c: qr, svd, eigh, solve, inv, det, pinv, ... */
  la_open_factor(L);        /* factor.c: cholesky, lu, eig, schur, expm, null */
  la_open_factor2(L);       /* factor2.c: slogdet, lu_factor, cho_solve, multi_dot */
  la_open_matfun(L);        /* matfun.c: sqrtm, logm, expm_frechet */
  la_open_lstsq(L);         /* lstsq.c: lstsq, lsq_state, nnls */
  la_open_gram_schmidt(L);  /* gram_schmidt.c */
  la_open_attention(L);     /* attention.c: softmax, attention, combine */
  la_open_train(L);         /* train.c: softmax_backward, clip_grad_norm */
  la_open_attention_bwd(L); /* attention_bwd.c: attention_backward */
  la_open_bytes(L);         /* bytes.c: frombuffer, tobytes */
  la_open_config(L);        /* config.c: threads, config */
  la_open_random(L);        /* random.c: la.random, NumPy's streams */
  la_open_front(L);         /* front.c: what the Lua front uses */
  la_open_files(L);         /* files.c: reading and writing files (internal) */
  la_open_csv(L);           /* csv.c: load_csv's streaming parser (internal) */
  lua_pushliteral(L, LINALG_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushliteral(L, LA_LUA_BUILT);       /* init.lua compares it with _VERSION */
  lua_setfield(L, -2, "lua_built");
  return 1;
}
