// The web app's files (tools/http/web/), compiled into the binary:
// tools/http/embed_web_assets.cmake turns each file into a byte array with its MIME type at build
// time, so the server never reads a file.
#pragma once

#include <span>
#include <string_view>

namespace mancala::http {

struct WebAsset {
  std::string_view path;  // URL path, e.g. "/app.js"
  std::string_view mime;  // Content-Type
  std::string_view data;
};

std::span<const WebAsset> web_assets();

}  // namespace mancala::http
