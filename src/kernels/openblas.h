/*
** kernels/openblas.h: OpenBLAS's own extensions, declared once (its cblas.h
** declares them only in some packagings).
*/
#ifndef LAK_OPENBLAS_H
#define LAK_OPENBLAS_H

void openblas_set_num_threads(int n);
int openblas_get_num_threads(void);
char *openblas_get_config(void);
char *openblas_get_corename(void);

#endif
