#include "core/formats/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace ks {

void parallelFor(std::size_t n, const std::function<void(std::size_t)>& fn, std::size_t batch) {
  const std::size_t kBatch = std::max<std::size_t>(batch, 1);
  if (n == 0) return;
  const std::size_t threads =
      std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, (n + kBatch - 1) / kBatch);
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failureMutex;
  auto work = [&] {
    try {
      for (std::size_t begin; (begin = next.fetch_add(kBatch)) < n;)
        for (std::size_t i = begin; i < std::min(n, begin + kBatch); ++i) fn(i);
    } catch (...) {
      std::lock_guard lock(failureMutex);
      if (!failure) failure = std::current_exception();
      next = n;  // stop handing out work
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
    work();
  }
  if (failure) std::rethrow_exception(failure);
}

std::size_t chunkCount(std::size_t work, std::size_t minPerChunk) {
  const std::size_t most = 4 * std::max(1u, std::thread::hardware_concurrency());
  return std::clamp<std::size_t>(work / std::max<std::size_t>(minPerChunk, 1), 1, most);
}

void parallelRanges(std::size_t n, std::size_t chunks,
                    const std::function<void(std::size_t chunk, std::size_t first, std::size_t last)>& fn) {
  chunks = std::max<std::size_t>(chunks, 1);
  const std::size_t per = (n + chunks - 1) / chunks;
  parallelFor(
      chunks, [&](std::size_t k) { fn(k, std::min(k * per, n), std::min((k + 1) * per, n)); }, /*batch=*/1);
}

}  // namespace ks
