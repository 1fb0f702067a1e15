# The browser's engine (tools/wasm): the rules, the search, the table builder, the service's answers
# and the JSON API compiled to WebAssembly with Debian's emscripten (scripts/build-wasm.sh runs
# `emcmake cmake`, which comes here). No OpenMP (one thread in a Web Worker), no database files
# (no zstd for WebAssembly in Debian: the browser's tables are built in memory), no doors but the
# worker's. fmt and nlohmann's JSON are header-only, read from the host's Debian packages.

# -Wno-unknown-pragmas: the OpenMP pragmas are read as nothing. -Wno-unused-parameter: a thread
# count that only an OpenMP pragma uses.
add_compile_options(-Wall -Wextra -Wpedantic -Wshadow -Werror -Wno-unknown-pragmas
                    -Wno-unused-parameter)
# C++ exceptions caught as natively (the API refuses bad input by throwing inside itself; without
# this, emscripten aborts on every throw): WebAssembly's own exception handling, which browsers
# have had since 2021 (Chromium 95), smaller and faster than emscripten's emulation in JavaScript.
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions)

# The host's headers, reached through a folder of their own (never /usr/include itself, whose C
# library headers are not emscripten's).
set(MANCALA_HOST_HEADERS "${PROJECT_BINARY_DIR}/host-headers")
foreach(header_dir nlohmann fmt)
  if(NOT EXISTS "/usr/include/${header_dir}")
    message(FATAL_ERROR "/usr/include/${header_dir} not found: scripts/install-deps.sh installs "
                        "nlohmann-json3-dev and libfmt-dev")
  endif()
  file(MAKE_DIRECTORY "${MANCALA_HOST_HEADERS}")
  file(CREATE_LINK "/usr/include/${header_dir}" "${MANCALA_HOST_HEADERS}/${header_dir}" SYMBOLIC)
endforeach()
add_library(OpenMP::OpenMP_CXX INTERFACE IMPORTED)
add_library(Threads::Threads INTERFACE IMPORTED)
add_library(fmt::fmt INTERFACE IMPORTED)
set_target_properties(fmt::fmt PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${MANCALA_HOST_HEADERS}"
                                          INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY)
add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
set_target_properties(nlohmann_json::nlohmann_json PROPERTIES
                      INTERFACE_INCLUDE_DIRECTORIES "${MANCALA_HOST_HEADERS}")

# The board with no server (docs/web-board.md): the web app staged as tools/http stages it for the
# server, but told to use the engine in the browser, with the engine beside it: BUILD/web-static,
# every file a static web server needs to serve.
find_program(MANCALA_ESBUILD esbuild REQUIRED)

configure_file(cmake/mancala_version.h.in ${PROJECT_BINARY_DIR}/generated/mancala_version.h @ONLY)
add_subdirectory(solver)
add_subdirectory(tools)
