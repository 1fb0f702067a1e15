# mancala_gtest_suites(TARGET): one CTest test per GoogleTest suite of TARGET, each running that
# suite's tests in one process (--gtest_filter=Suite.*, at most 600 s), found after each build of
# TARGET by listing its tests (list_gtest_suites.cmake).
#
# Why not one test per test (GoogleTest's gtest_discover_tests): a process per test costs about
# 0.13 s of CPU and 0.28 s in all to start and end under AddressSanitizer (its shadow memory, the
# leak check at exit) and 0.02 s in the Release build: 650 tests spent 1.5 minutes of the sanitized
# run starting processes. A suite's failures still name each failing test in its output.
#
# TARGET's own files (the tests, not the libraries they test, which keep the build's optimisation)
# are compiled at -O1: GoogleTest's macros make large functions that -O3 takes long over. Measured
# on a unity batch of mancala_tests: 22.2 s of CPU at -O3, 12.9 at -O1 (9.5 at -O0, but -O1 keeps
# the tests' own loops, over every position of a layer for instance, optimised).
function(mancala_gtest_suites target)
  target_compile_options(${target} PRIVATE -O1)
  set(listed "${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_suites_include.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -D "binary=$<TARGET_FILE:${target}>" -D "out=${listed}"
            -D "timeout=600" -D "directory=${CMAKE_CURRENT_BINARY_DIR}"
            -P "${PROJECT_SOURCE_DIR}/tests/cmake/list_gtest_suites.cmake"
    BYPRODUCTS "${listed}"
    VERBATIM)
  # CTest reads the list when it runs; until the target is built, a test that says so fails.
  file(WRITE "${include_file}"
       "if(EXISTS \"${listed}\")\n"
       "  include(\"${listed}\")\n"
       "else()\n"
       "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
       "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
