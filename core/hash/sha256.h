#pragma once
// SHA-256 (FIPS 180-4), and the `sha256:<hex>` code hash that the runner protocol, the store and
// `kscope batch` use to recognise the same program. Self-contained: the GPU machines have no OpenSSL headers.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ks::hash {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  std::string hexDigest();  // finishes the hash; the object is spent afterwards

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t totalBytes_ = 0;
};

std::string sha256Hex(std::string_view bytes);

// "sha256:" + sha256Hex(code): the identity of a candidate's program text.
std::string codeHash(std::string_view code);

}  // namespace ks::hash
