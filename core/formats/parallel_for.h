#pragma once
// Runs independent work items on every hardware thread.
#include <cstddef>
#include <functional>

namespace ks {

// Calls fn(i) for every i in [0, n), on up to std::thread::hardware_concurrency() threads (the caller's
// included), handing out `batch` items at a time so uneven items balance: many small items want a batch of
// several, a few large ones (chunks of a block) a batch of 1, or they all land on one thread. Returns when
// all are done; the first exception thrown by fn is rethrown here.
void parallelFor(std::size_t n, const std::function<void(std::size_t)>& fn, std::size_t batch = 16);

}  // namespace ks
