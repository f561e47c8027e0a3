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

// How many chunks `work` units (bytes, rows) make when each holds at least minPerChunk: 1 for small work
// (no thread started), at most 4 per hardware thread.
std::size_t chunkCount(std::size_t work, std::size_t minPerChunk);

// Splits [0, n) into `chunks` contiguous ranges of equal length (the last may be shorter or empty) and calls
// fn(chunk, first, last) for each, one range per parallelFor item.
void parallelRanges(std::size_t n, std::size_t chunks,
                    const std::function<void(std::size_t chunk, std::size_t first, std::size_t last)>& fn);

// Per-row work over a loaded run's rows (the views' table values, the charts' points) goes in chunks of at
// least this many rows: a million rows make 4 per hardware thread, a small run stays on its thread.
inline constexpr std::size_t kMinChunkRows = 16384;

}  // namespace ks
