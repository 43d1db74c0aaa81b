# Every tests/test_*.c is one test executable (one per area) and one ctest entry.
# Each test gets: argv[1] = path of the vkfluid binary, argv[2] = source dir,
# argv[3] = a scratch directory of its own.
# GPU tests run with validation (and synchronization validation) forced on and
# exit 77 (reported as skipped) only when no Vulkan device exists at all.
file(GLOB VF_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/test_*.c)
add_library(vf_testlib STATIC ${CMAKE_SOURCE_DIR}/tests/testlib.c)
target_link_libraries(vf_testlib PUBLIC vf_core)
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
# test_replay runs two viewer sessions, their replays and a 200-frame lockstep
# pair of processes (each waiting on the other every frame): more time
set_tests_properties(test_replay PROPERTIES TIMEOUT 900)

# The fuzz target's bounded run (about 15 s): new inputs go to a scratch
# corpus, the seeds in tests/fuzz_corpus stay untouched. A longer run: see the
# README (Robustness).
if(VF_FUZZ_BUILT)
  set(fuzz_scratch ${CMAKE_BINARY_DIR}/tests/scratch/fuzz_scene)
  add_test(NAME fuzz_scene
    COMMAND sh -c "rm -rf '${fuzz_scratch}' && mkdir -p '${fuzz_scratch}' && exec '${VF_FUZZ_BIN}' -max_total_time=15 -runs=5000000 -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix='${fuzz_scratch}/' -dict='${CMAKE_SOURCE_DIR}/tests/fuzz/scene.dict' '${fuzz_scratch}' '${CMAKE_SOURCE_DIR}/tests/fuzz_corpus'")
  set_tests_properties(fuzz_scene PROPERTIES TIMEOUT 120 ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1;UBSAN_OPTIONS=print_stacktrace=1")
endif()
