/* solver: what every solver family shares through its vtable. */
#include "solver.h"

void vf_solver_destroy(vf_solver **s)
{
    if (!s || !*s)
        return;
    (*s)->vt->destroy(*s);
    *s = NULL;
}
