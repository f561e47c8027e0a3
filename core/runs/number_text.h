#pragma once
// How the runs' sentences and tables write a number: one place, so `kscope run`, the GUI and the report
// read alike.
#include <string>

namespace ks::runs {

std::string fixed2(double v);              // "1.23"
std::string timesText(double v);           // "1.23×"
std::string durationText(double ms);       // "12.3 µs" below a millisecond, else "1.23 ms"
std::string signedPercentText(double r);   // a ratio as a change: 1.034 -> "+3 %", 0.9 -> "−10 %"
std::string percentText(double share);     // 0.034 -> "3 %"

}  // namespace ks::runs
