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
# A script of the page that is not imported by app.js (a worker, say) would be a second entry point
# here: every .js file of SOURCE_DIR is taken for a module of the page.
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
  if(file MATCHES "\\.js$")
    continue()
  endif()
  get_filename_component(dir "${file}" DIRECTORY)
  file(COPY "${SOURCE_DIR}/${file}" DESTINATION "${STAGE_DIR}/${dir}")
endforeach()

# --format=esm: the bundle is still loaded as a module (<script type="module">, strict, deferred).
# --charset=utf8: the page's non-ASCII texts stay as written rather than as \u escapes.
execute_process(
  COMMAND "${ESBUILD}" "${SOURCE_DIR}/app.js" --bundle --format=esm --charset=utf8
          --legal-comments=none --log-level=warning "--outfile=${STAGE_DIR}/app.js"
  RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "stage_web_app: esbuild could not join the modules of ${SOURCE_DIR}")
endif()
file(TOUCH "${STAMP}")
