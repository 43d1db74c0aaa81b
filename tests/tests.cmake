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
