// SPDX-License-Identifier: Apache-2.0
// lds_modal.h: the integrals of the contact LDS (A9) by modal decomposition (internal; docs/expo.md
// "The modal path"). For x = (d, d') in R^2m with d'' = -U K d - U B d' + b, U symmetric positive
// semi-definite (m x m), K = diag(k) > 0 and B = c K (one ratio c >= 0 for every row), the
// substitution y = V^T K^1/2 d with K^1/2 U K^1/2 = V diag(l) V^T (symeig.h) decouples the system
// into m scalar oscillators y'' + c l y' + l y = g, whose integrals over h are in closed form.
#ifndef SNI_LDS_MODAL_H
#define SNI_LDS_MODAL_H

#include "sinew/sn_base.h"

#include <stddef.h>

// sn_real entries of workspace for sni_lds_modal with m rows (2 m^2 + 14 m + 1)
size_t sni_lds_modal_work(int m);

// X1 = int_0^h x, X2 = int_0^h int_0^s x (2m each, d's rows then d''s) of x' = A x + a with
// A = [[0, I], [-U K, -c U K]], a = (0, b), x(0) = x0 (2m), as sni_lds_integrals gives them for
// that A and a (expm.h); U (m x m, row-major: its lower triangle is read), k (m, each > 0 and
// finite), c finite >= 0, h finite >= 0. U is taken as positive semi-definite: its eigenvalues
// below zero (rounding) are taken as zero. Errors: SN_ERR_ARG (m < 0, NULL, k <= 0, c < 0, h < 0),
// SN_ERR_NONFINITE (an input or the result not finite), SN_ERR_SINGULAR (the eigensolver did not
// converge); on error X1 and X2 are left as they were. Cost: about 7 m^3 + 20 m^2 flops.
sn_status sni_lds_modal(int m, const sn_real* U, const sn_real* k, sn_real c, const sn_real* b,
                        const sn_real* x0, sn_real h, sn_real* X1, sn_real* X2, sn_real* work);

// the integrals of one mode y'' + c l y' + l y = 0, y(0) = 0, y'(0) = 1 over h (l, c, h >= 0):
// P[0] = y(h), P[1..3] its first, second and third time integrals from 0 (tests check them)
void sni_lds_mode(sn_real l, sn_real c, sn_real h, sn_real P[4]);

#endif
