-- Registers Debian's /usr/bin/busted as the rock "busted" in a throwaway
-- user tree, so that `luarocks test` (which wants busted as a rock and
-- would fetch it from the network) runs offline in tools/check-install.sh.
rockspec_format = "3.0"
package = "busted"
version = "0.0-1"
source = { url = "git+file:///dev/null" }
description = { summary = "Wrapper for the system busted", license = "MIT" }
build = { type = "builtin", modules = {}, install = { bin = { busted = "busted" } } }
