/* app_paths: where the data files vkfluid ships (the model's device files,
 * the scene files) are, from any working folder: installed (cmake --install),
 * in the build folder of a clone, or in the source tree the binary was built
 * from. App layer. */
#ifndef VF_APP_PATHS_H
#define VF_APP_PATHS_H

#include <stdbool.h>
#include <stddef.h>

/** Finds a data folder and writes its path into out (cap bytes). Looks, in
 * this order, at <exe>/../VKFLUID_DATA_SUBDIR/installed (the install
 * layout: bin/ beside share/vkfluid/), <exe>/../source (a build folder inside
 * the clone), and VKFLUID_SOURCE_DIR/source (the source tree of this build),
 * where <exe> is the running executable's folder. False, with out holding
 * the source-tree candidate, when none is a folder. */
bool vf_app_data_dir(const char *installed, const char *source, char *out, size_t cap);

#endif
