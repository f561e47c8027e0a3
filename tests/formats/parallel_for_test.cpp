// parallelFor and parallelRanges (core/formats/parallel_for.h): every item once, on more than one thread where there are
// several, a few large items included (the run-format reader's chunks), and the first exception rethrown.
#include "core/formats/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

TEST(ParallelFor, CallsEveryItemExactlyOnce) {
  for (const std::size_t batch : {1, 3, 16}) {
    std::vector<std::atomic<int>> calls(1000);
    ks::parallelFor(calls.size(), [&](std::size_t i) { ++calls[i]; }, batch);
    for (std::size_t i = 0; i < calls.size(); ++i) ASSERT_EQ(calls[i].load(), 1) << "item " << i << ", batch " << batch;
  }
}

TEST(ParallelFor, AFewLargeItemsWithABatchOfOneRunOnSeveralThreads) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one hardware thread";
  // Each item waits until a second thread has entered one: with the whole range on one thread (a batch of
  // 16 for 8 items, as the reader once had it) they would wait out the deadline.
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::atomic<int> entered{0};
  ks::parallelFor(8, [&](std::size_t) {
    {
      std::lock_guard lock(mutex);
      threads.insert(std::this_thread::get_id());
    }
    ++entered;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      {
        std::lock_guard lock(mutex);
        if (threads.size() >= 2) break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }, /*batch=*/1);
  EXPECT_EQ(entered.load(), 8);
  EXPECT_GE(threads.size(), 2u);
}

TEST(ParallelFor, TheFirstExceptionIsRethrownAndNothingIsLeftRunning) {
  std::atomic<int> calls{0};
  EXPECT_THROW(ks::parallelFor(
                   10000,
                   [&](std::size_t i) {
                     ++calls;
                     if (i == 5) throw std::runtime_error("item 5");
                     // 10 000 items of 50 us: half a second on two threads, if nothing stopped them
                     std::this_thread::sleep_for(std::chrono::microseconds(50));
                   },
                   1),
               std::runtime_error);
  EXPECT_LT(calls.load(), 10000);  // work stopped being handed out
}

TEST(ParallelFor, NoItemsCallsNothing) {
  bool called = false;
  ks::parallelFor(0, [&](std::size_t) { called = true; });
  EXPECT_FALSE(called);
}

TEST(ParallelRanges, ContiguousRangesCoverEveryIndexOnceEachWithItsChunkNumber) {
  for (const std::size_t n : {0, 1, 9, 10, 1000}) {
    const std::size_t chunks = 4;
    std::vector<std::atomic<int>> seen(n);
    std::vector<std::atomic<int>> chunkCalls(chunks);
    ks::parallelRanges(n, chunks, [&](std::size_t chunk, std::size_t first, std::size_t last) {
      ASSERT_LT(chunk, chunks);
      ++chunkCalls[chunk];
      ASSERT_LE(first, last);
      for (std::size_t i = first; i < last; ++i) ++seen[i];
    });
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(seen[i].load(), 1) << "index " << i << " of " << n;
    for (std::size_t k = 0; k < chunks; ++k) EXPECT_EQ(chunkCalls[k].load(), 1) << "chunk " << k;
  }
}

TEST(ParallelRanges, SmallWorkIsOneChunkAndLargeWorkAtMostFourPerThread) {
  EXPECT_EQ(ks::chunkCount(0, 100), 1u);
  EXPECT_EQ(ks::chunkCount(199, 100), 1u);
  EXPECT_EQ(ks::chunkCount(300, 100), std::min<std::size_t>(3, 4 * std::max(1u, std::thread::hardware_concurrency())));
  EXPECT_EQ(ks::chunkCount(std::size_t{1} << 40, 1), 4 * std::max<std::size_t>(1, std::thread::hardware_concurrency()));
}
