// SPDX-License-Identifier: Apache-2.0
// sym3.h: the symmetric 3 x 3 eigenproblem (internal).
#ifndef SNI_SYM3_H
#define SNI_SYM3_H

#include "sinew/sn_base.h"

// the eigenvalues (ascending) and eigenvectors (columns of V, row-major) of the symmetric 3 x 3
// matrix A (row-major), by cyclic Jacobi rotations
void sni_sym3_eigen(const sn_real* A, sn_real ev[3], sn_real V[9]);
// the eigenvalues alone, ascending, in closed form (trigonometric): the inertia checks of the
// loaders
void sni_sym3_eigenvalues(const sn_real* a, sn_real ev[3]);

#endif
