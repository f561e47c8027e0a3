#include "core/hash/sha256.h"

#include <gtest/gtest.h>

namespace ks::hash {
namespace {

TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 1000 bytes: several blocks, and a final block where the length needs a block of its own.
  EXPECT_EQ(sha256Hex(std::string(1000, 'a')),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
}

TEST(Sha256, IncrementalEqualsOneShot) {
  const std::string text = "import torch\n" + std::string(200, 'x') + "\nclass ModelNew: pass\n";
  Sha256 h;
  for (std::size_t i = 0; i < text.size(); i += 7) h.update(std::string_view(text).substr(i, 7));
  EXPECT_EQ(h.hexDigest(), sha256Hex(text));
}

TEST(Sha256, CodeHashIsPrefixed) { EXPECT_EQ(codeHash("abc").substr(0, 7), "sha256:"); }

}  // namespace
}  // namespace ks::hash
