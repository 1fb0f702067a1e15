# What `cmake --install` puts where (GNU directories: /usr/local by default, /usr in the .deb):
#
#   bin/mancala                          the command (the web board is compiled into it)
#   share/man/man1/mancala*.1.gz         its manual pages, one per command, written by help2man
#                                        from the command's own --help (MANCALA_MAN_PAGES)
#   share/bash-completion/completions/mancala, share/zsh/vendor-completions/_mancala
#                                        shell completion, generated from the same --help
#   lib/libmancala_{util,rules,tables,search,db,service}.a
#                                        the library, layer by layer (README, "Folders")
#   include/mancala/...                  their public headers, at their paths in the source tree,
#                                        reached as <mancala/db/table_set.h> (include/ on the path)
#   lib/cmake/mancala/                   find_package(mancala CONFIG): mancala::rules, ...
#   lib/pkgconfig/mancala.pc             pkg-config --cflags --libs mancala
#
# The layers are static libraries unless BUILD_SHARED_LIBS is on (then shared, installed and
# exported the same way). Shared cost about 1% of perft's speed, inside the noise; static stays
# the default because it is the form the tests check and the .deb ships (docs/installing.md, "Static
# by default, shared on request", has the figures and the reasons).

include(CMakePackageConfigHelpers)

set(MANCALA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/mancala)
set(mancala_library_layers
    mancala_util mancala_rules mancala_tables mancala_search mancala_db mancala_service)

# ---- The command

install(TARGETS mancala RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# ---- The library: each layer an imported target mancala::<layer>, and mancala::mancala for all

set_target_properties(mancala_util PROPERTIES EXPORT_NAME util)
set_target_properties(mancala_rules PROPERTIES EXPORT_NAME rules)
set_target_properties(mancala_tables PROPERTIES EXPORT_NAME tables)
set_target_properties(mancala_search PROPERTIES EXPORT_NAME search)
set_target_properties(mancala_db PROPERTIES EXPORT_NAME db)
set_target_properties(mancala_service PROPERTIES EXPORT_NAME service)
add_library(mancala_library INTERFACE)
target_link_libraries(mancala_library INTERFACE ${mancala_library_layers})
set_target_properties(mancala_library PROPERTIES EXPORT_NAME mancala)
if(BUILD_SHARED_LIBS)
  # A 0.x library promises no stable ABI between minor versions: the minor version is in the name.
  set_target_properties(${mancala_library_layers} PROPERTIES
    VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  # The installed command finds the layers next to it, under any prefix.
  set_target_properties(mancala PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
endif()

# The SIMD code of the rules engine (solver/rules/lanes.h) is inline and chosen by the compiler's
# target flags: a program using the headers must be compiled for the same target as the library,
# or the two disagree on the layout of what they pass each other.
set(MANCALA_TARGET_FLAGS "")
if(MANCALA_NATIVE AND (MANCALA_FUZZ OR NOT MANCALA_SANITIZE))  # as the top CMakeLists.txt
  set(MANCALA_TARGET_FLAGS "-march=native")
  target_compile_options(mancala_rules INTERFACE $<INSTALL_INTERFACE:-march=native>)
endif()

install(TARGETS ${mancala_library_layers} mancala_library
  EXPORT mancala_targets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT mancala_targets NAMESPACE mancala:: FILE mancala-targets.cmake
        DESTINATION ${MANCALA_INSTALL_CMAKEDIR})

# ---- Public headers: what a program needs to play, probe tables, search, solve and ask the
# service layer, and everything those include (tests/install checks that they compile alone from
# the installed tree). The builder (solver/tables/retrograde*.h, db/table_build*.h), file access and
# block formats stay private: tables are built with `mancala db build`.
set(mancala_public_headers
  solver/util/expected.h
  solver/util/random.h
  solver/util/stopwatch.h
  solver/util/thread_count.h
  solver/rules/game.h
  solver/rules/lanes.h
  solver/rules/moves.h
  solver/rules/perft.h
  solver/rules/position.h
  solver/rules/record.h
  solver/rules/rules.h
  solver/rules/sowing_trace.h
  solver/tables/big_buffer.h
  solver/tables/exact_values.h
  solver/tables/table_answer.h
  solver/tables/table_index.h
  solver/tables/table_rules.h
  solver/search/evaluation.h
  solver/search/match.h
  solver/search/players.h
  solver/search/position_hash.h
  solver/search/score.h
  solver/search/search.h
  solver/search/search_budget.h
  solver/search/solve.h
  solver/search/sprt.h
  solver/search/table_conversion.h
  db/mapping_guard.h
  db/probe_failures.h
  db/table_answer.h
  db/table_file.h
  db/table_format.h
  db/table_set.h
  db/table_values.h
  db/value_code.h
  db/write_options.h
  tools/service/analysis.h
  tools/service/catalogue.h
  tools/service/game_tables.h
  tools/service/json_output.h
  tools/service/move_text.h
  tools/service/table_source.h
  tools/service/validation.h
)
# A public header that includes a private one would install but not compile from the installed
# tree; said here, when the project is configured, rather than by the install test at the end.
foreach(header ${mancala_public_headers})
  file(STRINGS ${PROJECT_SOURCE_DIR}/${header} project_includes
       REGEX "^#include \"(solver|db|tools)/[^\"]+\"")
  foreach(line ${project_includes})
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" included "${line}")
    if(NOT included IN_LIST mancala_public_headers)
      message(FATAL_ERROR "the public header ${header} includes ${included}, which is not in "
                          "mancala_public_headers (cmake/install.cmake)")
    endif()
  endforeach()
endforeach()
# Each is installed as cmake/namespace_header.cmake rewrites it, its includes of the project's
# headers spelled <mancala/...>: the copies are written at build time, each from its source.
set(mancala_installed_include ${PROJECT_BINARY_DIR}/installed-include/mancala)
set(mancala_installed_headers)
foreach(header ${mancala_public_headers})
  get_filename_component(header_dir ${header} DIRECTORY)
  set(installed ${mancala_installed_include}/${header})
  add_custom_command(
    OUTPUT ${installed}
    COMMAND ${CMAKE_COMMAND} -DIN=${PROJECT_SOURCE_DIR}/${header} -DOUT=${installed}
            -P ${PROJECT_SOURCE_DIR}/cmake/namespace_header.cmake
    DEPENDS ${PROJECT_SOURCE_DIR}/${header} ${PROJECT_SOURCE_DIR}/cmake/namespace_header.cmake
    VERBATIM)
  list(APPEND mancala_installed_headers ${installed})
  install(FILES ${installed} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mancala/${header_dir})
endforeach()
add_custom_target(mancala_installed_headers ALL DEPENDS ${mancala_installed_headers})
# Built with the command, so that a build of the command alone installs too.
add_dependencies(mancala mancala_installed_headers)
install(FILES ${PROJECT_BINARY_DIR}/generated/mancala_version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mancala)

# ---- find_package(mancala CONFIG)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mancala-config.cmake.in
  ${PROJECT_BINARY_DIR}/mancala-config.cmake INSTALL_DESTINATION ${MANCALA_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mancala-config-version.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mancala-config.cmake
              ${PROJECT_BINARY_DIR}/mancala-config-version.cmake
        DESTINATION ${MANCALA_INSTALL_CMAKEDIR})

# ---- pkg-config: the layers in link order, then what they link (static libraries carry none of
# their dependencies, so the .pc file names them all).
# The prefix is found from the .pc file's own place, so that the file is right under any prefix
# (the staging prefix of the tests, /usr in the .deb).
file(RELATIVE_PATH MANCALA_PC_PREFIX_FROM_PCFILEDIR
     /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(STRIP "${MANCALA_TARGET_FLAGS} ${OpenMP_CXX_FLAGS}" MANCALA_PC_COMPILE_FLAGS)
configure_file(${PROJECT_SOURCE_DIR}/cmake/mancala.pc.in ${PROJECT_BINARY_DIR}/mancala.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mancala.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- Manual pages and shell completion, generated from the built command's --help, so that they
# cannot drift from it (cmake/document_commands.sh).
find_program(MANCALA_HELP2MAN help2man)
if(MANCALA_HELP2MAN)
  set(mancala_man_default ON)
else()
  set(mancala_man_default OFF)
endif()
option(MANCALA_MAN_PAGES "Write and install the manual pages (needs help2man)"
       ${mancala_man_default})
if(MANCALA_MAN_PAGES AND NOT MANCALA_HELP2MAN)
  message(FATAL_ERROR "MANCALA_MAN_PAGES is on but help2man was not found (Debian: help2man; "
                      "scripts/install-deps.sh installs it), or configure with "
                      "-DMANCALA_MAN_PAGES=OFF")
endif()
set(mancala_docs_dir ${PROJECT_BINARY_DIR}/command-docs)
set(mancala_docs_outputs ${mancala_docs_dir}/bash/mancala ${mancala_docs_dir}/zsh/_mancala)
set(mancala_docs_help2man "")
if(MANCALA_MAN_PAGES)
  list(APPEND mancala_docs_outputs ${mancala_docs_dir}/man1/mancala.1.gz)
  set(mancala_docs_help2man ${MANCALA_HELP2MAN})
endif()
add_custom_command(
  OUTPUT ${mancala_docs_outputs}
  COMMAND bash ${PROJECT_SOURCE_DIR}/cmake/document_commands.sh $<TARGET_FILE:mancala>
          ${mancala_docs_dir} ${PROJECT_VERSION} "${mancala_docs_help2man}"
  DEPENDS mancala ${PROJECT_SOURCE_DIR}/cmake/document_commands.sh
  COMMENT "Writing the manual pages and shell completion from mancala --help")
# Not written by a sanitized build (nothing installs one): running its slower binary under help2man
# took 15 s of each such build.
if(MANCALA_SANITIZE)
  add_custom_target(mancala_command_docs DEPENDS ${mancala_docs_outputs})
else()
  add_custom_target(mancala_command_docs ALL DEPENDS ${mancala_docs_outputs})
endif()
install(FILES ${mancala_docs_dir}/bash/mancala
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES ${mancala_docs_dir}/zsh/_mancala
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
if(MANCALA_MAN_PAGES)
  install(DIRECTORY ${mancala_docs_dir}/man1 DESTINATION ${CMAKE_INSTALL_MANDIR}
          FILES_MATCHING PATTERN "*.1.gz")
endif()

# ---- cpack -G DEB: one package with the command, its pages, completion and the library.
set(CPACK_PACKAGE_NAME mancala)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
# Whoever builds a package to hand out names themselves: -DMANCALA_DEB_MAINTAINER="Name <mail>".
set(MANCALA_DEB_MAINTAINER "mancala maintainers <mancala@localhost>" CACHE STRING
    "The Maintainer: field of the .deb")
set(CPACK_PACKAGE_CONTACT "${MANCALA_DEB_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Kalah, Oware and Congkak: play, solve, endgame tables, web board")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "mancala plays Kalah, Oware and Congkak in a terminal and in a web browser against six\n"
  "computer levels, builds and queries endgame tables, solves whole games exactly, and serves\n"
  "a JSON HTTP API and the Auale engine protocol. The package also holds the C++ library,\n"
  "its headers, a CMake package and a pkg-config file.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION games)
# The shared libraries the command links (fmt, zstd, OpenMP's runtime, MPI ...) become Depends:
# through dpkg-shlibdeps. Building a program on the library needs the development packages of its
# headers' and link's dependencies: recommended, not needed to run the command.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "libfmt-dev, libzstd-dev, libxxhash-dev, nlohmann-json3-dev, pkg-config")
set(CPACK_GENERATOR DEB)
include(CPack)
