# Every tests/test_*.c is one test executable (one per area) and one ctest entry.
# Each test gets: argv[1] = path of the vkfluid binary, argv[2] = source dir,
# argv[3] = a scratch directory of its own.
# GPU tests run with validation (and synchronization validation) on and exit
# 77 (reported as skipped) only when no Vulkan device exists at all.
# The sanitizer build's tests (VKFLUID_SANITIZE) check vkfluid's own memory and
# undefined behaviour; the plain build and the driver matrix run the same
# tests with validation. Under ASan every allocation of the validation layer
# and of lavapipe goes through ASan's allocator, so that run sets
#   VKFLUID_VALIDATION=0  no validation layer (its allocations: about 2 s of
#                         the 3.2 s a short run takes there)
#   LP_NUM_THREADS=1      one lavapipe worker: each freshly mapped page ASan's
#                         allocator touches for the driver's per-workgroup
#                         allocations then needs no TLB shootdown on the other
#                         core (a 1 000-particle dfsph bench: 21.7 CPU-s, 16.7
#                         of them in the kernel, against 7.5 with one worker)
#   VKFLUID_DRIVER_LIGHT=1  test_drivers at one step per scene, as on the
#                         driver matrix (the set: label sanitizer-light below)
set(VF_TEST_ENV "VKFLUID_VALIDATION=1;VKFLUID_TEST=1")
if(VKFLUID_SANITIZE)
  set(VF_TEST_ENV "VKFLUID_VALIDATION=0;VKFLUID_TEST=1;LP_NUM_THREADS=1;VKFLUID_DRIVER_LIGHT=1")
endif()
file(GLOB VF_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/test_*.c)
# Long physics runs whose host code (the command line, exports, reports) the
# lighter tests cover too: the sanitizer run leaves them to the plain suite
# (label "sanitizer-light": tools/quickstart.sh runs -LE 'matrix|sanitizer-light'
# there; the environment of that build's tests is VF_TEST_ENV above), and
# the sanitizer build does not build them.
# test_grid_physics (the cavity against Ghia et al., the V-cycle rates: 263 s
# of the sanitizer run's 2781 s of tests in the loaded run of docs/robustness.md)
# drives the grid solver that test_grid, test_drivers and test_cli run there;
# test_sph_methods the SPH solvers that test_sph_pbf, test_sph_dfsph and
# test_sph_run run there. test_install checks the install tree and the
# package that cmake and cpack make, the same from either build (44 s of the
# sanitizer run's 1 150 s in a fresh-clone run at load 2-4).
set(VF_SANITIZER_LIGHT test_gallery test_height_physics test_grid3d_physics test_terrain_physics test_grid_physics
    test_sph_methods test_install)
# Time limits only end hangs; they scale with the build and the machine:
# VF_TEST_TIMEOUT_PERCENT (100: as written below) is the measured machine
# factor tools/quickstart.sh passes (the runnable processes per core when the
# tests begin: the 1-minute load average plus the 2 tests ctest runs at once,
# over the cores, from 1 to 8, so a loaded machine gets longer limits), and
# a sanitizer build multiplies them by 3 (ASan and UBSan slow vkfluid's own
# code 2-3x; the drivers are not instrumented).
set(VF_TEST_TIMEOUT_PERCENT 100 CACHE STRING "percent applied to every test's time limit (the machine factor)")
if(NOT VF_TEST_TIMEOUT_PERCENT MATCHES "^[0-9]+$" OR VF_TEST_TIMEOUT_PERCENT LESS 100)
  message(FATAL_ERROR "VF_TEST_TIMEOUT_PERCENT=${VF_TEST_TIMEOUT_PERCENT}: must be a whole number of percent >= 100")
endif()
set(vf_timeout_build 1)
if(VKFLUID_SANITIZE)
  set(vf_timeout_build 3)
endif()
# vf_timeout(VAR SECONDS): SECONDS scaled by the build and the machine
function(vf_timeout var seconds)
  math(EXPR t "${seconds} * ${vf_timeout_build} * ${VF_TEST_TIMEOUT_PERCENT} / 100")
  set(${var} ${t} PARENT_SCOPE)
endfunction()
vf_timeout(VF_T400 400)
vf_timeout(VF_T900 900)
vf_timeout(VF_T1200 1200)
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
  if(VKFLUID_SANITIZE AND name IN_LIST VF_SANITIZER_LIGHT)
    continue()
  endif()
  add_executable(${name} ${src} ${VF_SAN_SOURCES})
  target_link_libraries(${name} PRIVATE vf_testlib)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
  set(scratch ${CMAKE_BINARY_DIR}/tests/scratch/${name})
  add_test(NAME ${name}
    COMMAND ${name} $<TARGET_FILE:vkfluid> ${CMAKE_SOURCE_DIR} ${scratch})
  set_tests_properties(${name} PROPERTIES
    SKIP_RETURN_CODE 77
    TIMEOUT ${VF_T400}
    ENVIRONMENT "${VF_TEST_ENV}")
endforeach()
# The pass tables and the render table are checked against their shaders as
# they are built: test_spirv reads only the embedded SPIR-V (no device), so a
# row whose push struct or workgroup size disagrees with its shader fails the
# build, not only the test run.
set(vf_spirv_log ${CMAKE_BINARY_DIR}/tests/test_spirv_build.log)
add_custom_command(TARGET test_spirv POST_BUILD
  COMMAND sh -c "\"$0\" \"$1\" \"$2\" \"$3\" > \"$4\" 2>&1 || { cat \"$4\"; exit 1; }"
          $<TARGET_FILE:test_spirv> $<TARGET_FILE:vkfluid> ${CMAKE_SOURCE_DIR}
          ${CMAKE_BINARY_DIR}/tests/scratch/test_spirv_build ${vf_spirv_log}
  COMMENT "test_spirv: every pass and render table row against its shader"
  VERBATIM)
# test_install runs cmake --install and cpack on this build folder
if(TARGET test_install)
  target_compile_definitions(test_install PRIVATE VF_CMAKE_COMMAND="${CMAKE_COMMAND}" VF_CPACK_COMMAND="${CMAKE_CPACK_COMMAND}")
endif()
# test_replay runs two viewer sessions, their replays and a 200-frame lockstep
# pair of processes (each waiting on the other every frame): more time
set_tests_properties(test_replay PROPERTIES TIMEOUT ${VF_T900})
# thirteen scenes captured and judged: minutes on a CPU device
if(TEST test_gallery)
  set_tests_properties(test_gallery PROPERTIES TIMEOUT ${VF_T1200})
endif()

foreach(name ${VF_SANITIZER_LIGHT})
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES LABELS sanitizer-light)
  endif()
endforeach()

# The driver matrix (label "matrix"; the plain suite is `ctest -LE matrix`):
# the tests that compare GPU kernels with their CPU references, the physics
# tests at test sizes, the capture determinism tests and test_drivers (every
# scene, one step, the device's descriptor path), again on
#   lvp128       lavapipe with 128-bit vectors (LP_NATIVE_VECTOR_WIDTH=128: subgroup 4)
#   swiftshader  SwiftShader (Debian package chromium-common; subgroup 4, no push descriptors)
#   min-desktop  lavapipe with the limits vkfluid reads clamped to the smallest
#                that current desktop GPUs report (VKFLUID_LIMITS=min-desktop)
# A driver that is not installed fails its tests with a line saying what to
# install; nothing is skipped. SwiftShader is several times slower than
# lavapipe, so it runs VF_SWIFTSHADER_TESTS: the kernel tests and
# test_drivers at one step per scene (VKFLUID_DRIVER_LIGHT=1), which between
# them run every shader (README, Tested on). The lavapipe rows run
# test_drivers at one step per scene too, on the device's descriptor path:
# whether both paths give byte-identical exports and frames is a property of
# vkfluid's binding code, not of the subgroup size or the limits, and the
# suite checks it (test_drivers: 36 and 33 CPU seconds on lvp128 and
# min-desktop, alone). test_scan passes there too but
# takes about 8 minutes (its 2^26-element scan), so the matrix leaves it to
# lavapipe; the scan shaders run in SPH binning (test_sph_bin, test_drivers).
# test_counters is left out there too: its counts are the same on every row
# (lvp128 and min-desktop have SwiftShader's subgroup size and shared-memory
# path), it checks the descriptor-set path SwiftShader adds on lavapipe
# itself, and the kernels it counts run on SwiftShader in test_gpu_core,
# test_sph_bin, test_grid and test_height_kernels (250 s of 1802 s in the
# loaded run of docs/robustness.md).
set(VF_SWIFTSHADER_TESTS test_gpu_core test_grid test_grid_methods test_height_kernels test_sph_bin test_sph_kernels
    test_sph_forces test_sph_pbf test_sph_dfsph test_ssf test_grid3d test_sph_foam test_sph_mesh test_drivers
    test_terrain_kernels test_surface_compute test_spirv)
set(VF_MATRIX_TESTS test_gpu_core test_scan test_grid test_grid_methods test_grid_physics test_height_kernels test_height_physics
    test_height_render test_sph_bin test_sph_kernels test_sph_forces test_sph_pbf test_sph_dfsph test_sph_hydro test_sph_run test_ssf
    test_capture test_grid3d test_grid3d_physics test_grid3d_render test_sph_foam test_sph_mesh test_counters
    test_drivers test_terrain_kernels test_terrain_physics test_surface_compute test_spirv)
set(VF_MINDESKTOP_TESTS test_gpu_core test_scan test_grid test_grid_methods test_height_kernels test_sph_bin test_sph_kernels
    test_sph_forces test_sph_pbf test_sph_dfsph test_ssf test_grid3d test_sph_foam test_sph_mesh test_counters test_drivers
    test_terrain_kernels test_surface_compute test_spirv)
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
    set(extra "")
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
    if(NOT TARGET ${name})
      continue() # not built (the sanitizer build's sanitizer-light tests)
    endif()
    set(scratch ${CMAKE_BINARY_DIR}/tests/scratch/${name}@${cfg})
    add_test(NAME ${name}@${cfg}
      COMMAND ${name} $<TARGET_FILE:vkfluid> ${CMAKE_SOURCE_DIR} ${scratch})
    set_tests_properties(${name}@${cfg} PROPERTIES
      LABELS matrix
      TIMEOUT ${VF_T900}
      ENVIRONMENT "VKFLUID_VALIDATION=1;VKFLUID_TEST=1;VKFLUID_DRIVER_LIGHT=1;VK_DRIVER_FILES=${icd};VK_ICD_FILENAMES=${icd};${extra}")
  endforeach()
endforeach()

# The longest tests start first: ctest runs tests in descending COST when it
# has no timings of its own (a fresh clone, as in CI), so two long tests do
# not end the run one after the other. The costs are the seconds each took in
# a fresh-clone CI run of 6e6dcfa with two CPU-bound processes beside it
# (its suite and driver matrix, 2026-11-28, docs/robustness.md; tests under
# 30 s keep cost 0); only the order depends on them.
set(VF_TEST_COSTS
    test_sph_methods 224 test_gallery 162 test_drivers@swiftshader 142 test_viewer 87 test_replay 84
    test_bench 65 test_height_physics@lvp128 55 test_height_physics 55 test_drivers 55
    test_grid@swiftshader 37 test_grid_physics@lvp128 35 test_grid_physics 35
    test_grid_methods@swiftshader 33 test_sph_run@lvp128 31 test_sph_run 30 test_height_cli 30)
while(VF_TEST_COSTS)
  list(POP_FRONT VF_TEST_COSTS name cost)
  if(TEST ${name})
    set_tests_properties(${name} PROPERTIES COST ${cost})
  endif()
endwhile()

# The fuzz target's bounded run (about 15 s): new inputs go to a scratch
# corpus, the seeds in tests/fuzz_corpus stay untouched. A longer run: see the
# README (Robustness).
if(VF_FUZZ_BUILT)
  set(fuzz_scratch ${CMAKE_BINARY_DIR}/tests/scratch/fuzz_scene)
  add_test(NAME fuzz_scene
    COMMAND sh -c "rm -rf '${fuzz_scratch}' && mkdir -p '${fuzz_scratch}' && exec '${VF_FUZZ_BIN}' -max_total_time=15 -runs=5000000 -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix='${fuzz_scratch}/' -dict='${CMAKE_SOURCE_DIR}/tests/fuzz/scene.dict' '${fuzz_scratch}' '${CMAKE_SOURCE_DIR}/tests/fuzz_corpus'")
  vf_timeout(VF_T120 120)
  set_tests_properties(fuzz_scene PROPERTIES TIMEOUT ${VF_T120} ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1;UBSAN_OPTIONS=print_stacktrace=1")
endif()
