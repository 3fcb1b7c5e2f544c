/* kernels/vecmath_tab.h: written by tools/vecmath_tab.py (mpmath); do not edit */
#define VM_EXP_N 16
static const double vm_exp_hi[16] = {
  0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
  0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
  0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
  0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};
static const double vm_exp_lo[16] = {
  0x0.0p+0, 0x1.8a62e4adc610bp-54, -0x1.19041b9d78a76p-55, 0x1.9b07eb6c70573p-54,
  0x1.6f46ad23182e4p-55, 0x1.ada0911f09ebcp-55, 0x1.d4397afec42e2p-56, 0x1.6324c054647adp-54,
  -0x1.bdd3413b26456p-54, -0x1.41577ee04992fp-55, 0x1.6e9f156864b27p-54, 0x1.c7c46b071f2bep-56,
  0x1.7a1cd345dcc81p-54, 0x1.11065895048ddp-55, 0x1.2ed02d75b3707p-55, -0x1.e9c23179c2893p-54};
#define VM_INVLN2N 0x1.71547652b82fep+4
#define VM_LN2HIN 0x1.62e42fefa0000p-5
#define VM_LN2LON 0x1.cf79abc9e3b3ap-44
#define VM_LOG_OFF 0x3fe6955500000000ULL
static const double vm_log_invc[16] = {
  0x1.62e35ec55cdcfp+0, 0x1.5426fe81de518p+0, 0x1.469767d930285p+0, 0x1.3a120260bdc80p+0,
  0x1.2e7951b44c9fcp+0, 0x1.23b40c93fd1c6p+0, 0x1.19ac640db653cp+0, 0x1.104f6f8412415p+0,
  0x1.078cb545748f8p+0, 0x1.0000000000000p+0, 0x1.df882753d3cfbp-1, 0x1.c5039260cd9c5p-1,
  0x1.ad46750d87134p-1, 0x1.97e6885d0df2bp-1, 0x1.848daf1f957cfp-1, 0x1.72f5653cb3477p-1};
static const double vm_log_hi[16] = {
  -0x1.4e76da9ada000p-2, -0x1.230989f7fe000p-2, -0x1.f2c1299596000p-3, -0x1.a2b134dc3e000p-3,
  -0x1.55a471a214000p-3, -0x1.0b62f02c70000p-3, -0x1.877540b178000p-4, -0x1.f9fa18d128000p-5,
  -0x1.dc307ed1e0000p-6, 0x0.0p+0, 0x1.0c58bb8330000p-4, 0x1.f55b7c3868000p-4,
  0x1.68e95e52da000p-3, 0x1.d1835928a0000p-3, 0x1.1a83ec90f8000p-2, 0x1.49f7c4b0b1000p-2};
static const double vm_log_lo[16] = {
  0x1.a8b3a16c7c679p-44, -0x1.eee1581baecddp-44, -0x1.22985a5795c10p-46, -0x1.fc7a3d191fe3bp-50,
  -0x1.586fe42bbdfd0p-48, 0x1.f341c586c3046p-45, -0x1.6d8793073526fp-45, 0x1.17d660387fe48p-45,
  -0x1.922961af62479p-44, 0x0.0p+0, -0x1.9fb151df99942p-45, 0x1.ff40fdab17513p-46,
  0x1.4ab6a4d19c132p-45, 0x1.30c7574fe9f0ep-46, -0x1.b80a78a1b8458p-44, 0x1.489b8882f0858p-44};
/* log: q(r) = (log1p(r) - r) / r^2 for r in [-0.0292683, 0.036458] */
static const double vm_logq[9] = {
  -0x1.0000000000000p-1, 0x1.5555555555529p-2, -0x1.0000000002194p-2, 0x1.9999999ab6e11p-3,
  -0x1.555554f7b3152p-3, 0x1.249238b1d9da1p-3, -0x1.00029027ceddep-3, 0x1.c7d918bbcd394p-4,
  -0x1.8eb7d7a9cad86p-4};
#define VM_LN2HI 0x1.62e42fefa3800p-1
#define VM_LN2LO 0x1.ef35793c76730p-45
#define VM_TANH_SMALL 0x1.2000000000000p-1
static const double vm_tanh_p[12] = {  /* highest degree first */
  0x1.002b1e55e95d8p-17, -0x1.1798f633d339fp-15, 0x1.8b6e011d560bfp-14, -0x1.f3e303d937561p-13,
  0x1.354431e18ea6cp-11, -0x1.7da216499f72dp-10, 0x1.d6d3c26abcbe7p-9, -0x1.226e352b6a427p-7,
  0x1.664f4881ec346p-6, -0x1.ba1ba1ba19d5dp-5, 0x1.1111111111105p-3, -0x1.5555555555555p-2};
