#include "core/stats/speedup_sets.h"

namespace ks {

std::string ofTheWins(std::size_t wins) { return "of the " + std::to_string(wins) + " " + kShownAsWinsSet; }

std::string notWinsText(std::size_t fallbackTimed, std::size_t caughtHacks) {
  std::string text;
  if (fallbackTimed > 0) text = std::to_string(fallbackTimed) + " fallback-timed";
  if (caughtHacks > 0)
    text += (text.empty() ? "" : ", ") + std::to_string(caughtHacks) +
            (caughtHacks == 1 ? " caught hack" : " caught hacks");
  return text.empty() ? text : text + " not " + kShownAsWinsSet;
}

}  // namespace ks
