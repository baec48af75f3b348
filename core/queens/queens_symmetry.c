/* Canonical (fundamental) n-queens solutions: the smallest image under the dihedral group of the square. */
#include "core/queens/queens_symmetry.h"

#include "core/queens/queens_solutions.h"

/* The 8 symmetries are the compositions of an optional transpose (the inverse permutation) with an
 * optional flip of the rows and an optional flip of the columns. Image of symmetry t at row r: */
static int image_at(const int *cols, const int *inverse, int n, int t, int r) {
    const int *base = (t & 4) ? inverse : cols;
    int value = base[(t & 1) ? n - 1 - r : r];
    return (t & 2) ? n - 1 - value : value;
}

bool queens_is_canonical(const int *cols, int n) {
    int inverse[QUEENS_MAX_N];
    for (int r = 0; r < n; r++) {
        inverse[cols[r]] = r;
    }
    for (int t = 1; t < 8; t++) {
        for (int r = 0; r < n; r++) {
            int value = image_at(cols, inverse, n, t, r);
            if (value < cols[r]) {
                return false;
            }
            if (value > cols[r]) {
                break;
            }
        }
    }
    return true;
}
