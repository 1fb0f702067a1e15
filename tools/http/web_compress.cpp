// The build's compressor of the web app's files (run by http/embed_web_assets.cmake):
//   mancala_web_compress FILE GZIP_OUT [BROTLI_OUT]
// writes FILE gzip-compressed (zlib, level 9, no name and no time in the header, so that the
// same file always gives the same bytes) and, when built with Brotli, brotli-compressed
// (quality 11, text mode). The server sends these bytes as they are, to clients that take them.
#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#ifdef MANCALA_WEB_BROTLI
#include <brotli/encode.h>
#endif

namespace {

bool write_file(const char* path, const std::string& data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  return static_cast<bool>(out);
}

bool gzip(const std::string& in, std::string& out) {
  z_stream stream{};
  // 15 bits of window, +16: a gzip header and trailer rather than zlib's.
  if (deflateInit2(&stream, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) return false;
  out.resize(deflateBound(&stream, static_cast<uLong>(in.size())) + 32);
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  stream.avail_in = static_cast<uInt>(in.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return result == Z_STREAM_END;
}

#ifdef MANCALA_WEB_BROTLI
bool brotli(const std::string& in, std::string& out) {
  size_t size = BrotliEncoderMaxCompressedSize(in.size());
  if (size == 0) size = in.size() + 1024;
  out.resize(size);
  if (!BrotliEncoderCompress(BROTLI_MAX_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, in.size(),
                             reinterpret_cast<const uint8_t*>(in.data()), &size,
                             reinterpret_cast<uint8_t*>(out.data())))
    return false;
  out.resize(size);
  return true;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: %s FILE GZIP_OUT [BROTLI_OUT]\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
    return 1;
  }
  const std::string data{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::string compressed;
  if (!gzip(data, compressed) || !write_file(argv[2], compressed)) {
    std::fprintf(stderr, "%s: gzip of %s failed\n", argv[0], argv[1]);
    return 1;
  }
  if (argc == 4) {
#ifdef MANCALA_WEB_BROTLI
    if (!brotli(data, compressed) || !write_file(argv[3], compressed)) {
      std::fprintf(stderr, "%s: brotli of %s failed\n", argv[0], argv[1]);
      return 1;
    }
#else
    std::fprintf(stderr, "%s: built without Brotli\n", argv[0]);
    return 1;
#endif
  }
  return 0;
}
