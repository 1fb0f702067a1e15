# Writes OUT: a CTest test per GoogleTest suite of BINARY (see GTestSuites.cmake).
# cmake -D binary=... -D out=... -D timeout=SECONDS -D directory=WORKING_DIR -P list_gtest_suites.cmake
execute_process(COMMAND "${binary}" --gtest_list_tests
                OUTPUT_VARIABLE listing RESULT_VARIABLE result TIMEOUT 60)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${binary} --gtest_list_tests failed (${result}):\n${listing}")
endif()
# A suite's line starts in the first column ("Suite." or "Instance/Suite.", perhaps followed by a
# comment); its tests' lines are indented. Matched whole, never split on the list's ';' or '[',
# which a parameter's comment may hold.
string(REGEX MATCHALL "\n[A-Za-z_0-9/]+\\." suites "\n${listing}")
set(text "")
foreach(suite IN LISTS suites)
  string(STRIP "${suite}" suite)
  string(REGEX REPLACE "\\.$" "" suite "${suite}")
  string(APPEND text "add_test(\"${suite}\" \"${binary}\" \"--gtest_filter=${suite}.*\")\n"
                     "set_tests_properties(\"${suite}\" PROPERTIES TIMEOUT ${timeout} "
                     "WORKING_DIRECTORY \"${directory}\")\n")
endforeach()
if(text STREQUAL "")
  message(FATAL_ERROR "${binary} lists no test")
endif()
file(WRITE "${out}" "${text}")
