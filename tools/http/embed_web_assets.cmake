# Turns every file under SOURCE_DIR (the staged app: stage_web_app.cmake) into a byte array in the
# C++ source OUTPUT (tools/http/web_assets.h):
#   cmake -DSOURCE_DIR=build/tools/web -DOUTPUT=web_assets.cpp -P tools/http/embed_web_assets.cmake
# Run by the build whenever a file of the web app changes.
file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*")
list(SORT files)

function(mime_type file result)
  get_filename_component(ext "${file}" LAST_EXT)
  string(TOLOWER "${ext}" ext)
  if(ext STREQUAL ".html")
    set(type "text/html; charset=utf-8")
  elseif(ext STREQUAL ".js" OR ext STREQUAL ".mjs")
    set(type "text/javascript; charset=utf-8")
  elseif(ext STREQUAL ".css")
    set(type "text/css; charset=utf-8")
  elseif(ext STREQUAL ".json")
    set(type "application/json; charset=utf-8")
  elseif(ext STREQUAL ".svg")
    set(type "image/svg+xml")
  elseif(ext STREQUAL ".png")
    set(type "image/png")
  elseif(ext STREQUAL ".webmanifest")
    set(type "application/manifest+json")
  else()
    message(FATAL_ERROR "embed_web_assets: no MIME type known for ${file}")
  endif()
  set(${result} "${type}" PARENT_SCOPE)
endfunction()

# The bytes of FILE as a C++ array named NAME appended to `arrays`; its size in SIZE_VAR.
function(embed file name size_var)
  file(READ "${file}" hex HEX)
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  # One character literal per byte: '\xab',
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
  set(arrays "${arrays}constexpr char ${name}[] = {\n    ${bytes}};\n" PARENT_SCOPE)
  set(${size_var} ${size} PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY "${WORK_DIR}")
set(arrays "")
set(entries "")
set(index 0)
foreach(file IN LISTS files)
  file(SIZE "${SOURCE_DIR}/${file}" size)
  if(size EQUAL 0)
    message(FATAL_ERROR "embed_web_assets: ${file} is empty")
  endif()
  string(APPEND arrays "// ${file}\n")
  embed("${SOURCE_DIR}/${file}" kFile${index} size)
  set(outputs "${WORK_DIR}/${index}.gz")
  if(BROTLI)
    list(APPEND outputs "${WORK_DIR}/${index}.br")
  endif()
  execute_process(COMMAND "${COMPRESS}" "${SOURCE_DIR}/${file}" ${outputs}
                  RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "embed_web_assets: ${file} could not be compressed")
  endif()
  # A compressed form is kept only when it is smaller (a tiny file may grow).
  set(gzip "{}")
  file(SIZE "${WORK_DIR}/${index}.gz" gzip_size)
  if(gzip_size LESS size)
    embed("${WORK_DIR}/${index}.gz" kGzip${index} gzip_size)
    set(gzip "{kGzip${index}, ${gzip_size}}")
  endif()
  set(brotli "{}")
  if(BROTLI)
    file(SIZE "${WORK_DIR}/${index}.br" brotli_size)
    if(brotli_size LESS size)
      embed("${WORK_DIR}/${index}.br" kBrotli${index} brotli_size)
      set(brotli "{kBrotli${index}, ${brotli_size}}")
    endif()
  endif()
  string(APPEND arrays "\n")
  mime_type("${file}" type)
  string(APPEND entries
         "    {\"/${file}\", \"${type}\", {kFile${index}, ${size}}, ${gzip}, ${brotli}},\n")
  math(EXPR index "${index} + 1")
endforeach()

# The base64 form of the bytes written as hex digits HEX (CSP's hash sources are written so).
function(base64_of_hex hex result)
  set(alphabet "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
  string(LENGTH "${hex}" length)
  set(encoded "")
  set(at 0)
  while(at LESS length)
    # Three bytes (six digits) make four characters; a last group of one or two bytes makes two
    # or three, and '=' fills the four.
    string(SUBSTRING "${hex}" ${at} 6 group)
    string(LENGTH "${group}" digits)
    math(EXPR characters "${digits} / 2 + 1")
    string(APPEND group "000000")
    string(SUBSTRING "${group}" 0 6 group)
    math(EXPR value "0x${group}")
    foreach(shift 18 12 6 0)
      if(characters GREATER 0)
        math(EXPR index "(${value} >> ${shift}) & 63")
        string(SUBSTRING "${alphabet}" ${index} 1 character)
        string(APPEND encoded "${character}")
        math(EXPR characters "${characters} - 1")
      else()
        string(APPEND encoded "=")
      endif()
    endforeach()
    math(EXPR at "${at} + 6")
  endwhile()
  set(${result} "${encoded}" PARENT_SCOPE)
endfunction()

# The hash sources of index.html's inline scripts ('sha256-...'), which the server's
# Content-Security-Policy allows by name (web_server.cpp): the page's inline scripts say before
# the first paint whether the board written into the page is shown, or the one kept of a game.
set(script_hashes "")
file(READ "${SOURCE_DIR}/index.html" rest)
string(FIND "${rest}" "<script>" opened)
while(NOT opened EQUAL -1)
  math(EXPR opened "${opened} + 8")
  string(SUBSTRING "${rest}" ${opened} -1 rest)
  string(FIND "${rest}" "</script>" closed)
  if(closed EQUAL -1)
    message(FATAL_ERROR "embed_web_assets: an inline script of index.html is not closed")
  endif()
  string(SUBSTRING "${rest}" 0 ${closed} script)
  string(SUBSTRING "${rest}" ${closed} -1 rest)
  string(SHA256 digest "${script}")
  base64_of_hex("${digest}" digest)
  string(APPEND script_hashes " 'sha256-${digest}'")
  string(FIND "${rest}" "<script>" opened)
endwhile()
string(STRIP "${script_hashes}" script_hashes)

set(source "// Generated by tools/http/embed_web_assets.cmake from tools/http/web/: do not edit.
#include \"tools/http/web_assets.h\"

namespace mancala::http {

namespace {

${arrays}constexpr WebAsset kAssets[] = {
${entries}};

}  // namespace

std::span<const WebAsset> web_assets() {
  return kAssets;
}

std::string_view web_script_hashes() {
  return \"${script_hashes}\";
}

}  // namespace mancala::http
")

# Rewrite only on change, so that an unchanged app does not recompile.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL source)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${source}")
