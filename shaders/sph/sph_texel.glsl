// sph_texel.glsl: the switch between texel-view and storage-buffer reads
// (shared_sph.h, VF_SPH_SPEC_TEXEL), for every SPH pass that reads through
// texel views. Included after shared.h.
layout(constant_id = VF_SPH_SPEC_TEXEL) const bool sph_texel = true;
