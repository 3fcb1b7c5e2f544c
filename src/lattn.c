/*
** lattn.c: softmax and attention bindings.
*/
#include "lbind.h"

void la_open_attn(lua_State *L) {
  (void)L;
}
