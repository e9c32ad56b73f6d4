// Starting several OS threads at once, where the system may refuse one of
// them (no memory for its stack under an address-space limit, a limit on
// threads). Knows nothing of the simulator.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace scopesim::fiber {

// Starts `count` threads, the k-th running body(k). If the system refuses
// one, stop(started) makes the `started` threads already running end, they
// are joined, and the refusal is thrown again as a std::runtime_error that
// names `total` (the threads the caller meant to run, its own included)
// and how many ran: no std::thread is left joinable, whose destruction
// would end the process.
template <class Body, class Stop>
std::vector<std::thread> start_threads(std::size_t count, std::size_t total, Body body, Stop stop) {
  std::vector<std::thread> threads;
  threads.reserve(count);
  try {
    for (std::size_t k = 0; k < count; ++k) threads.emplace_back(body, k);
  } catch (const std::system_error& e) {
    const std::size_t started = threads.size();
    stop(started);
    for (std::thread& t : threads) t.join();
    throw std::runtime_error("cannot run " + std::to_string(total) + " threads at once: the system refused one after " +
                             std::to_string(total - count + started) + " (" + e.what() + ")");
  }
  return threads;
}

}  // namespace scopesim::fiber
