# Writes the web app as the server sends it into STAGE_DIR, from the files as written in SOURCE_DIR:
#   cmake -DSOURCE_DIR=tools/http/web -DSTAGE_DIR=DIR -DESBUILD=/usr/bin/esbuild -DSTAMP=FILE
#         -P tools/http/stage_web_app.cmake
# Every file is copied as it is but the ES modules: in their place STAGE_DIR/app.js holds app.js and
# every module it imports, joined by esbuild (Debian's `esbuild`) into one module. Why: over a phone's
# network each request costs a round trip, and a browser asks one server for 6 files at a time over
# HTTP/1.1, so 40 modules took 5 to 6 round trips before the page could run (docs/web-board.md,
# "Loading fast"); one file takes one. The bundle is not minified: its code reads as written (a
# stack trace names the real functions), with the module each part comes from in a comment, and
# compressed it is 10 KB more than minified, about 10 ms of Fast 4G.
# The page's worker, engine-worker.js (the engine in the browser, engine.js), is a second entry
# point, joined the same way; the engine it imports (mancala-engine.js, the WebAssembly build's) is
# not part of the sources and stays a file of its own.
#
# -DENGINE=browser stages the board with no server (cmake/wasm.cmake's static board): index.html
# says so to engine.js (a meta element), does not preload the server's API, and links the web app
# manifest; the engine (mancala-engine.js and .wasm, from ENGINE_DIR) and STATIC_DIR's manifest
# are added, the worker is told the engine build it runs (the WebAssembly's hash: its kept tables
# are that build's), and STATIC_DIR/service-worker.js.in becomes service-worker.js with the list of
# every file and a version named by their contents.
foreach(var SOURCE_DIR STAGE_DIR ESBUILD STAMP)
  if(NOT ${var})
    message(FATAL_ERROR "stage_web_app: ${var} is not set")
  endif()
endforeach()

# A file removed from SOURCE_DIR leaves nothing behind.
file(REMOVE_RECURSE "${STAGE_DIR}")
file(MAKE_DIRECTORY "${STAGE_DIR}")
file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*")
foreach(file IN LISTS files)
  if(file MATCHES "\\.js$" OR file STREQUAL "first-board.html")
    continue()
  endif()
  get_filename_component(dir "${file}" DIRECTORY)
  file(COPY "${SOURCE_DIR}/${file}" DESTINATION "${STAGE_DIR}/${dir}")
endforeach()

# first-board.html is no file of its own: it is written into index.html in the place marked for it,
# so that the first paint shows the board (index.html says when). It is the board app.js draws for a
# new game of the default setup, as the browser tests take it from the page (board.test.mjs, "the
# board written into the page is the one the page draws"; MANCALA_UPDATE_FIRST_BOARD=1 rewrites it).
file(READ "${SOURCE_DIR}/index.html" page)
file(READ "${SOURCE_DIR}/first-board.html" first_board)
string(FIND "${page}" "<!--FIRST-BOARD-->\n" marker)
if(marker EQUAL -1)
  message(FATAL_ERROR "stage_web_app: index.html has no place marked for first-board.html")
endif()
string(REPLACE "<!--FIRST-BOARD-->\n" "${first_board}" page "${page}")
file(WRITE "${STAGE_DIR}/index.html" "${page}")

# --format=esm: the bundle is still loaded as a module (<script type="module">, strict, deferred).
# --charset=utf8: the page's non-ASCII texts stay as written rather than as \u escapes.
foreach(entry app.js engine-worker.js)
  execute_process(
    COMMAND "${ESBUILD}" "${SOURCE_DIR}/${entry}" --bundle --format=esm --charset=utf8
            --legal-comments=none --log-level=warning --external:./mancala-engine.js
            "--outfile=${STAGE_DIR}/${entry}"
    RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "stage_web_app: esbuild could not join the modules of ${SOURCE_DIR}/${entry}")
  endif()
endforeach()

if(ENGINE STREQUAL "browser")
  file(READ "${STAGE_DIR}/index.html" page)
  string(REGEX REPLACE "<link rel=\"preload\" href=\"/api/v1/[^\n]*\n" "" page "${page}")
  string(REPLACE "<meta charset=\"utf-8\">"
                 "<meta charset=\"utf-8\">\n<meta name=\"mancala-engine\" content=\"browser\">"
                 page "${page}")
  set(installable "<link rel=\"manifest\" href=\"manifest.webmanifest\">\n")
  string(APPEND installable "<meta name=\"theme-color\" content=\"#8b5a2b\">\n")
  string(REPLACE "<link rel=\"icon\"" "${installable}<link rel=\"icon\"" page "${page}")
  file(WRITE "${STAGE_DIR}/index.html" "${page}")
  file(SHA256 "${ENGINE_DIR}/mancala-engine.wasm" engine_hash)
  string(SUBSTRING "${engine_hash}" 0 16 engine_build)
  file(READ "${STAGE_DIR}/engine-worker.js" worker)
  string(REPLACE "@ENGINE_BUILD@" "${engine_build}" worker "${worker}")
  file(WRITE "${STAGE_DIR}/engine-worker.js" "${worker}")
  file(COPY "${ENGINE_DIR}/mancala-engine.js" "${ENGINE_DIR}/mancala-engine.wasm"
            "${STATIC_DIR}/manifest.webmanifest" DESTINATION "${STAGE_DIR}")
  # Every file, in a stable order; the version is the hash of their names and contents.
  file(GLOB_RECURSE staged RELATIVE "${STAGE_DIR}" "${STAGE_DIR}/*")
  list(SORT staged)
  set(listed "")
  set(hashes "")
  foreach(file IN LISTS staged)
    file(SHA256 "${STAGE_DIR}/${file}" hash)
    string(APPEND hashes "${file} ${hash}\n")
    string(APPEND listed "\n  './${file}',")
  endforeach()
  string(SHA256 version "${hashes}")
  string(SUBSTRING "${version}" 0 16 VERSION)
  set(FILES "${listed}\n")
  configure_file("${STATIC_DIR}/service-worker.js.in" "${STAGE_DIR}/service-worker.js" @ONLY)
endif()
file(TOUCH "${STAMP}")
