"""An independent Python transcription of la.randn's stream (for the pinned
values in spec/kernels/rng.c and spec/r3_randn_spec.lua): splitmix64 seeding,
xoshiro256** (Blackman and Vigna's reference C), uniforms from the top 53
bits, and the 256-layer ziggurat (Marsaglia and Tsang 2000) on the tables of
src/kernels/ziggurat.h, read from that file. Python's math.log stands in for
lak_log, so a tail value may differ in its last bits; a layer or wedge value
(u * w_i) is exact.
usage: /usr/bin/python3 tools/randn_ref.py SEED COUNT  -> "index kind value" lines
(kind: layer, wedge or tail; index 1-based, value as %.17g)."""
import math
import re
import sys

M64 = (1 << 64) - 1


def tables(path="src/kernels/ziggurat.h"):
    text = open(path).read()

    def arr(name):
        body = re.search(name + r"\[256\] = \{(.*?)\};", text, re.S).group(1)
        return [x.strip() for x in body.split(",") if x.strip()]
    k = [int(x.rstrip("ULL"), 16) for x in arr("lak_zig_k")]
    w = [float.fromhex(x) for x in arr("lak_zig_w")]
    f = [float.fromhex(x) for x in arr("lak_zig_f")]
    r = float(re.search(r"lak_zig_r = ([0-9.]+);", text).group(1))
    inv_r = float.fromhex(re.search(r"lak_zig_inv_r = (\S+);", text).group(1))
    return k, w, f, r, inv_r


class Xoshiro:
    def __init__(self, seed):
        x, self.s = seed & M64, []
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & M64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            self.s.append(z ^ (z >> 31))

    def next(self):
        s = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M64
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]
        s[2] ^= t; s[3] = rotl(s[3], 45)
        return result

    def uniform(self):
        return (self.next() >> 11) * 2.0 ** -53


def normals(seed, count):
    k, w, f, r, inv_r = tables()
    g = Xoshiro(seed)
    out = []
    while len(out) < count:
        while True:
            b = g.next()
            i, neg, u = b & 0xff, (b >> 8) & 1, (b >> 9) & ((1 << 52) - 1)
            x = u * w[i]
            if neg:
                x = -x
            if u < k[i]:
                out.append(("layer", x)); break
            if i == 0:
                while True:
                    t = -inv_r * math.log(1.0 - g.uniform())
                    y = -math.log(1.0 - g.uniform())
                    if y + y > t * t:
                        out.append(("tail", -(r + t) if neg else r + t)); break
                break
            if math.log((f[i - 1] - f[i]) * g.uniform() + f[i]) < -0.5 * x * x:
                out.append(("wedge", x)); break
    return out


if __name__ == "__main__":
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    for n, (kind, v) in enumerate(normals(seed, count), 1):
        print(n, kind, "%.17g" % v)
