/* kernels/vecmath32_tab.h: written by tools/vecmath32_tab.py (mpmath); do not edit */
#define VM32_LOG_OFF 0x3fe6955500000000ULL
static const double vm32_log_invc[16] = {
  0x1.62e35ec000000p+0, 0x1.5426fe8000000p+0, 0x1.469767e000000p+0, 0x1.3a12026000000p+0,
  0x1.2e7951b000000p+0, 0x1.23b40c9000000p+0, 0x1.19ac641000000p+0, 0x1.104f6f8000000p+0,
  0x1.078cb54000000p+0, 0x1.0000000000000p+0, 0x1.df88275000000p-1, 0x1.c503926000000p-1,
  0x1.ad46751000000p-1, 0x1.97e6886000000p-1, 0x1.848daf2000000p-1, 0x1.72f5654000000p-1};
static const double vm32_log_c[16] = {
  -0x1.e287aa9976fe1p-2, -0x1.a3e0c57c0dd7bp-2, -0x1.67c67d8b0a5fep-2, -0x1.2e05c86a66526p-2,
  -0x1.ece2bf7e19c2dp-3, -0x1.81c1d41475575p-3, -0x1.1a6094ebc898ep-3, -0x1.6cfc3680d827ep-4,
  -0x1.577f80728e2bep-5, 0x0.0p+0, 0x1.83246f9c64377p-4, 0x1.69a723eb5b3c8p-3,
  0x1.0457ba23c5b8fp-2, 0x1.4fcbf4d838226p-2, 0x1.97955dd91802cp-2, 0x1.dc0b0044e8f34p-2};
#define VM32_LOGDEG 7
/* log2(1 + r) = r q(r), r in [-0.029268301858861534, 0.03645789623260498]: relative error 1.18e-15 */
static const double vm32_log_q[8] = {
  0x1.71547652b82f9p+0, -0x1.71547652b8dfap-1, 0x1.ec709dc430199p-2, -0x1.715476202b6f6p-2,
  0x1.2776b9d819516p-2, -0x1.ec74256e5d83ap-3, 0x1.a6ae15fd50e34p-3, -0x1.68a4a7eb01a84p-3};
static const double vm32_exp_t[16] = {
  0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
  0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
  0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
  0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};
#define VM32_EXPDEG 4
/* 2^f - 1 = f e(f), |f| <= 1/32: relative error 4.15e-13 */
static const double vm32_exp_e[5] = {
  0x1.62e42fefa39efp-1, 0x1.ebfbdff6988c8p-3, 0x1.c6b08d6faa1bep-5, 0x1.3b2c4ac7da565p-7,
  0x1.5d893e58acc63p-10};
