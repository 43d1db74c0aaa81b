# Every tests/test_*.c is one test executable (one per area) and one ctest entry.
# Each test gets: argv[1] = path of the vkfluid binary, argv[2] = source dir,
# argv[3] = a scratch directory of its own.
# GPU tests run with validation (and synchronization validation) forced on and
# exit 77 (reported as skipped) only when no Vulkan device exists at all.
file(GLOB VF_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/test_*.c)
# tests/ref: the CPU reference of every kernel, a layer above the solvers and
# renderers it mirrors; the tests see every layer.
file(GLOB VF_REF_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/ref/*.c)
add_library(vf_ref STATIC ${VF_REF_SOURCES})
target_include_directories(vf_ref PUBLIC ${CMAKE_SOURCE_DIR}/tests/ref)
target_link_libraries(vf_ref PUBLIC vf_render ${VF_SIM_FAMILIES})
add_library(vf_testlib STATIC ${CMAKE_SOURCE_DIR}/tests/testlib.c)
target_link_libraries(vf_testlib PUBLIC vf_app vf_ref)
target_include_directories(vf_testlib PUBLIC ${CMAKE_SOURCE_DIR}/tests)
foreach(src ${VF_TEST_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE vf_testlib)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  set(scratch ${CMAKE_BINARY_DIR}/tests/scratch/${name})
  add_test(NAME ${name}
    COMMAND ${name} $<TARGET_FILE:vkfluid> ${CMAKE_SOURCE_DIR} ${scratch})
  set_tests_properties(${name} PROPERTIES
    SKIP_RETURN_CODE 77
    TIMEOUT 400
    ENVIRONMENT "VKFLUID_VALIDATION=1;VKFLUID_TEST=1")
endforeach()
# test_install runs cmake --install and cpack on this build folder
target_compile_definitions(test_install PRIVATE VF_CMAKE_COMMAND="${CMAKE_COMMAND}" VF_CPACK_COMMAND="${CMAKE_CPACK_COMMAND}")
# test_replay runs two viewer sessions, their replays and a 200-frame lockstep
# pair of processes (each waiting on the other every frame): more time
set_tests_properties(test_replay PROPERTIES TIMEOUT 900)
# thirteen scenes captured and judged: minutes on a CPU device
if(TEST test_gallery)
  set_tests_properties(test_gallery PROPERTIES TIMEOUT 1200)
endif()

# The driver matrix (label "matrix"; the plain suite is `ctest -LE matrix`):
# the tests that compare GPU kernels with their CPU references, the physics
# tests at test sizes, the capture determinism tests and test_drivers (every
# scene, both descriptor paths), again on
#   lvp128       lavapipe with 128-bit vectors (LP_NATIVE_VECTOR_WIDTH=128: subgroup 4)
#   swiftshader  SwiftShader (Debian package chromium-common; subgroup 4, no push descriptors)
#   min-desktop  lavapipe with the limits vkfluid reads clamped to the smallest
#                that current desktop GPUs report (VKFLUID_LIMITS=min-desktop)
# A driver that is not installed fails its tests with a line saying what to
# install; nothing is skipped. SwiftShader is several times slower than
# lavapipe, so it runs VF_SWIFTSHADER_TESTS: the kernel tests and
# test_drivers at one step per scene (VKFLUID_DRIVER_LIGHT=1), which between
# them run every shader (README, Tested on). test_scan passes there too but
# takes about 8 minutes (its 2^26-element scan), so the matrix leaves it to
# lavapipe; the scan shaders run in SPH binning (test_sph_bin, test_drivers).
set(VF_SWIFTSHADER_TESTS test_gpu_core test_grid test_height_kernels test_sph_bin test_sph_kernels
    test_sph_forces test_sph_pbf test_ssf test_grid3d test_sph_foam test_sph_mesh test_counters test_drivers
    test_terrain_kernels)
set(VF_MATRIX_TESTS test_gpu_core test_scan test_grid test_grid_physics test_height_kernels test_height_physics
    test_height_render test_sph_bin test_sph_kernels test_sph_forces test_sph_pbf test_sph_hydro test_sph_run test_ssf
    test_capture test_grid3d test_grid3d_physics test_grid3d_render test_sph_foam test_sph_mesh test_counters
    test_drivers test_terrain_kernels test_terrain_physics)
set(VF_MINDESKTOP_TESTS test_gpu_core test_scan test_grid test_height_kernels test_sph_bin test_sph_kernels
    test_sph_forces test_sph_pbf test_ssf test_grid3d test_sph_foam test_sph_mesh test_counters test_drivers
    test_terrain_kernels)
file(GLOB VF_LVP_ICD /usr/share/vulkan/icd.d/lvp_icd*.json)
if(VF_LVP_ICD)
  list(SORT VF_LVP_ICD)
  list(GET VF_LVP_ICD 0 VF_LVP_ICD)
endif()
find_file(VF_SWIFTSHADER_ICD vk_swiftshader_icd.json
  PATHS /usr/lib/chromium /usr/lib64/chromium /usr/lib/chromium-browser /usr/lib/x86_64-linux-gnu/chromium
  NO_DEFAULT_PATH)
set(VF_MATRIX_CONFIGS lvp128 swiftshader min-desktop)
foreach(cfg ${VF_MATRIX_CONFIGS})
  if(cfg STREQUAL "lvp128")
    set(icd "${VF_LVP_ICD}")
    set(extra "LP_NATIVE_VECTOR_WIDTH=128")
    set(list ${VF_MATRIX_TESTS})
    set(missing "lavapipe is not installed: apt-get install mesa-vulkan-drivers")
  elseif(cfg STREQUAL "swiftshader")
    set(icd "${VF_SWIFTSHADER_ICD}")
    set(extra "VKFLUID_DRIVER_LIGHT=1")
    set(list ${VF_SWIFTSHADER_TESTS})
    set(missing "SwiftShader is not installed: apt-get install chromium-common (tools/quickstart.sh test does), then reconfigure")
  else()
    set(icd "${VF_LVP_ICD}")
    set(extra "VKFLUID_LIMITS=min-desktop")
    set(list ${VF_MINDESKTOP_TESTS})
    set(missing "lavapipe is not installed: apt-get install mesa-vulkan-drivers")
  endif()
  if(NOT icd)
    add_test(NAME matrix_${cfg}_driver COMMAND sh -c "echo 'driver matrix ${cfg}: ${missing}' >&2; exit 1")
    set_tests_properties(matrix_${cfg}_driver PROPERTIES LABELS matrix)
    continue()
  endif()
  foreach(name ${list})
    set(scratch ${CMAKE_BINARY_DIR}/tests/scratch/${name}@${cfg})
    add_test(NAME ${name}@${cfg}
      COMMAND ${name} $<TARGET_FILE:vkfluid> ${CMAKE_SOURCE_DIR} ${scratch})
    set_tests_properties(${name}@${cfg} PROPERTIES
      LABELS matrix
      TIMEOUT 900
      ENVIRONMENT "VKFLUID_VALIDATION=1;VKFLUID_TEST=1;VK_DRIVER_FILES=${icd};VK_ICD_FILENAMES=${icd};${extra}")
  endforeach()
endforeach()

# The fuzz target's bounded run (about 15 s): new inputs go to a scratch
# corpus, the seeds in tests/fuzz_corpus stay untouched. A longer run: see the
# README (Robustness).
if(VF_FUZZ_BUILT)
  set(fuzz_scratch ${CMAKE_BINARY_DIR}/tests/scratch/fuzz_scene)
  add_test(NAME fuzz_scene
    COMMAND sh -c "rm -rf '${fuzz_scratch}' && mkdir -p '${fuzz_scratch}' && exec '${VF_FUZZ_BIN}' -max_total_time=15 -runs=5000000 -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix='${fuzz_scratch}/' -dict='${CMAKE_SOURCE_DIR}/tests/fuzz/scene.dict' '${fuzz_scratch}' '${CMAKE_SOURCE_DIR}/tests/fuzz_corpus'")
  set_tests_properties(fuzz_scene PROPERTIES TIMEOUT 120 ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1;UBSAN_OPTIONS=print_stacktrace=1")
endif()
