// The web app's files (tools/http/web/), compiled into the binary as staged by
// tools/http/stage_web_app.cmake (the files as written, the modules joined into app.js):
// tools/http/embed_web_assets.cmake turns each file into a byte array with its MIME type at build
// time, with its gzip and brotli forms, so the server never reads nor compresses a file.
#pragma once

#include <span>
#include <string_view>

namespace mancala::http {

struct WebAsset {
  std::string_view path;  // URL path, e.g. "/app.js"
  std::string_view mime;  // Content-Type
  std::string_view data;
  // The same bytes compressed (Content-Encoding gzip, br); empty when the build has no such form
  // or it would not be smaller.
  std::string_view gzip;
  std::string_view brotli;
};

std::span<const WebAsset> web_assets();

// The hash sources ('sha256-BASE64', space-separated) of index.html's inline scripts, for the
// Content-Security-Policy's script-src: the page's scripts are its own files and these alone.
std::string_view web_script_hashes();

}  // namespace mancala::http
