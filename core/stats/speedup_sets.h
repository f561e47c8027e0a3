#pragma once
// The two sets of recorded speedups that statistics are shown over, and the words for them, the same in
// every place that shows such statistics (kscope summary, the Charts tab's summary line, the report):
//   - "all recorded": every recorded speedup of the baseline;
//   - "shown as wins": those drawn as wins, that is all recorded less a caught hack's number and a
//     fallback-timed one (views/logic/speedup_trust.h decides which; the charts draw those grey).
// A newcomer who sees two medians can then tell which set each is over.
#include <cstddef>
#include <string>

namespace ks {

inline constexpr const char* kAllRecordedSet = "all recorded";
inline constexpr const char* kShownAsWinsSet = "shown as wins";

// "of the 196 shown as wins": what the statistics of the wins are introduced with.
std::string ofTheWins(std::size_t wins);

// "4 fallback-timed, 31 caught hacks not shown as wins" ("1 caught hack"); empty when both are 0. A number
// that is both a caught hack and fallback-timed is counted as a caught hack only.
std::string notWinsText(std::size_t fallbackTimed, std::size_t caughtHacks);

}  // namespace ks
