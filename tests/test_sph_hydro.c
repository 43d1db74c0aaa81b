/* Hydrostatic column at rest: a box of water (14 x 14 particles across, 18
 * deep, spacing 1 cm, h = 2.41 spacing, Tait with c = 10 sqrt(2 g H)) settles
 * under gravity. Settling uses velocity damping (50 1/s) and a high viscosity
 * (50 Pa s): both vanish at rest and do not change the equilibrium; they stop
 * the particle lattice from rearranging while it compresses (SPH particles
 * under pressure have no shear stiffness: an undamped lattice buckles into a
 * disordered packing whose density noise, amplified by c^2, would drown the
 * hydrostatic signal).
 *
 * Check: for every particle more than 2h from the free surface and from the
 * walls, the pressure there is within 3% of rho0 g z, z the depth below the
 * free surface (the water volume over the base area). "The pressure there" is
 * the SPH interpolant sum_j V_j p_j W_ij / sum_j V_j W_ij at the particle: the
 * raw per-particle values carry an alternating +-rho0 g s / 2 layer pattern (a
 * null mode of the symmetric pressure gradient, set by the free surface where
 * the top row has p = 0) that the interpolant removes; the raw error is
 * printed too. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "solver_sph.h"
#include "testlib.h"

int main(int argc, char **argv)
{
    vf_gpu *gpu = vf_test_start(argc, argv);
    vf_sph_desc d;
    float(*pos)[4] = vf_test_sph_column(&d);
    vf_sph *sph = NULL;
    if (!CHECK(pos != NULL))
        goto done;
    d.viscosity = 50;
    d.damping = 50;
    sph = vf_test_sph(gpu, &d);
    if (!sph)
        goto done;
    double dt = vf_sph_dt(sph);
    uint32_t total = argc > 4 ? (uint32_t)atoi(argv[4]) : 500, chunk = 100;
    printf("%u particles, h = %.4g m, c = %.3g m/s, dt = %.3g s, %u settling steps (%.3g s)\n", d.count, d.h,
           d.sound_speed, dt, total, total * dt);
    for (uint32_t done_steps = 0; done_steps < total; done_steps += chunk) {
        CHECK(vf_test_sph_steps(gpu, sph, chunk) == VF_OK);
        vf_sph_snapshot snap;
        if (!CHECK(vf_sph_read(sph, false, &snap) == VF_OK))
            break;
        printf("  t = %.3f s: kinetic energy %.3e J/kg\n", (done_steps + chunk) * dt, vf_test_sph_kinetic(&snap));
        vf_sph_snapshot_free(&snap);
    }
    vf_sph_snapshot snap;
    if (CHECK(vf_sph_read(sph, false, &snap) == VF_OK)) {
        vf_test_hydrostatic r = vf_test_sph_hydrostatic(&snap, vf_sph_get_params(sph), &d);
        printf("surface at %.4f m; %d particles more than 2h = %.3g m from the surface and walls: pressure vs rho0 g z: "
               "worst %.2f%%, mean %+.2f%% (raw per-particle pressure: worst %.2f%%)\n",
               r.surface, r.used, 2 * d.h, 100 * r.worst, 100 * r.mean, 100 * r.worst_raw);
        CHECK(r.used >= 100);
        CHECK_LE(r.worst, 0.03);
        vf_sph_snapshot_free(&snap);
    }
done:
    vf_sph_destroy(&sph);
    free(pos);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
