// Fuzz target: the client's decoder of the runner's event lines (protocol::decodeEvent), the other direction
// of the same pipe. An event that decodes must encode to a line that decodes again to the same encoding.
#include <cstdlib>

#include "core/protocol/json_codec.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto decoded = ks::protocol::decodeEvent(ks::fuzz::bytes(data, size));
  if (!decoded.value) {
    if (decoded.error.empty()) std::abort();  // a rejection must say why
    return 0;
  }
  const std::string encoded = ks::protocol::encodeEvent(*decoded.value);
  const auto again = ks::protocol::decodeEvent(encoded);
  if (!again.value || ks::protocol::encodeEvent(*again.value) != encoded) std::abort();
  return 0;
}
