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
#include "solver_sph_ref.h"
#include "testlib.h"

int main(int argc, char **argv)
{
    vf_test_init(argc, argv);
    vf_gpu *gpu = vf_test_gpu();
    const double s = 0.01, g = 9.81, rho0 = 1000, hs = 2.41;
    const int nx = 14, ny = 18;
    const double W = nx * s, D = ny * s;
    uint32_t n = (uint32_t)(nx * nx * ny);
    float(*pos)[4] = calloc(n, sizeof *pos);
    uint32_t i = 0;
    for (int y = 0; y < ny; y++)
        for (int z = 0; z < nx; z++)
            for (int x = 0; x < nx; x++, i++) {
                pos[i][0] = (float)((x + 0.5) * s);
                pos[i][1] = (float)((y + 0.5) * s);
                pos[i][2] = (float)((z + 0.5) * s);
            }
    vf_sph_desc d = {0};
    d.hi[0] = d.hi[2] = W;
    d.hi[1] = 1.5 * D;
    d.spacing = s;
    d.h = hs * s;
    d.rho0 = rho0;
    d.speed_ref = sqrt(2 * g * D);
    d.sound_speed = 10 * d.speed_ref;
    d.viscosity = 50;
    d.damping = 50;
    d.restitution = 0.2;
    d.gravity[1] = -g;
    d.cfl = 0.25;
    d.frame_dt = 1.0 / 60;
    d.count = n;
    d.pos = (const float (*)[4])pos;
    vf_sph *sph = vf_test_sph(gpu, &d);
    if (!sph)
        goto done;
    double dt = vf_sph_dt(sph);
    uint32_t total = argc > 4 ? (uint32_t)atoi(argv[4]) : 500, chunk = 100;
    printf("%u particles, h = %.4g m, c = %.3g m/s, dt = %.3g s, %u settling steps (%.3g s)\n", n, d.h, d.sound_speed, dt,
           total, total * dt);
    for (uint32_t done_steps = 0; done_steps < total; done_steps += chunk) {
        CHECK(vf_sph_run_steps(sph, chunk) == VF_OK);
        vf_sph_snapshot snap;
        if (!CHECK(vf_sph_read(sph, false, &snap) == VF_OK))
            break;
        double ke = 0;
        for (uint32_t k = 0; k < snap.count; k++)
            ke += 0.5 * (snap.vel[k][0] * snap.vel[k][0] + snap.vel[k][1] * snap.vel[k][1] + snap.vel[k][2] * snap.vel[k][2]);
        printf("  t = %.3f s: kinetic energy %.3e J/kg\n", (done_steps + chunk) * dt, ke / snap.count);
        vf_sph_snapshot_free(&snap);
    }
    vf_sph_snapshot snap;
    if (CHECK(vf_sph_read(sph, false, &snap) == VF_OK)) {
        const vf_sph_params *prm = vf_sph_get_params(sph);
        double surface = snap.count * s * s * s / (W * W), h = d.h;
        double worst = 0, worst_raw = 0, sum = 0;
        int used = 0;
        for (uint32_t k = 0; k < snap.count; k++) {
            double x = snap.pos[k][0], y = snap.pos[k][1], z = snap.pos[k][2];
            double depth = surface - y;
            if (depth < 2 * h || y < 2 * h || x < 2 * h || x > W - 2 * h || z < 2 * h || z > W - 2 * h)
                continue;
            double num = 0, den = 0;
            for (uint32_t j = 0; j < snap.count; j++) {
                double dx = x - snap.pos[j][0], dy = y - snap.pos[j][1], dz = z - snap.pos[j][2];
                double w = vf_sph_ref_poly6(sqrt(dx * dx + dy * dy + dz * dz), h) * prm->mass / snap.dens[j][0];
                num += w * snap.dens[j][1];
                den += w;
            }
            double expect = rho0 * g * depth;
            double e = (num / den - expect) / expect;
            worst = fmax(worst, fabs(e));
            worst_raw = fmax(worst_raw, fabs(snap.dens[k][1] - expect) / expect);
            sum += e;
            used++;
        }
        printf("surface at %.4f m; %d particles more than 2h = %.3g m from the surface and walls: pressure vs rho0 g z: "
               "worst %.2f%%, mean %+.2f%% (raw per-particle pressure: worst %.2f%%)\n",
               surface, used, 2 * h, 100 * worst, used ? 100 * sum / used : 0, 100 * worst_raw);
        CHECK(used >= 100);
        CHECK_LE(worst, 0.03);
        vf_sph_snapshot_free(&snap);
    }
done:
    vf_sph_destroy(&sph);
    free(pos);
    vf_test_gpu_done(&gpu);
    return vf_test_finish();
}
