#include "sim/engine/sampling_search.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "sim/engine/strategies.hpp"
#include "sim/fiber/start_threads.hpp"

namespace scopesim {

namespace {

constexpr std::uint64_t kShortestExpected = 64;  // PCT: steps assumed before any run is seen

// Run k: a function of k and, under PCT, of the longest run before it.
RunResult sample(const models::Model& m, const models::Config& c, const RunOptions& o, const SamplingSearch& s,
                 std::uint64_t k, std::uint64_t expected_steps) {
  const std::uint64_t seed = s.seed * 0x100000001b3ULL + k;
  if (!s.pct) {
    RandomChooser ch(seed);
    return run_once(m, c, o, ch);
  }
  PctChooser ch(seed, s.pct_depth, expected_steps);
  return run_once(m, c, o, ch);
}

// Runs made ahead on worker threads, at most `window` past the last one
// taken. Run k is made with the longest run known when it starts; it is used
// when that is the longest run before k (always under random sampling), else
// made again, so the runs taken are those of one thread.
class SamplesAhead {
 public:
  SamplesAhead(const models::Model& m, const models::Config& c, const RunOptions& o, const SamplingSearch& s)
      : m_(m), c_(c), o_(o), s_(s), slots_(8 * std::size_t{s.jobs}) {
    workers_ = fiber::start_threads(
        s.jobs - 1, s.jobs, [this](std::size_t) { work(); }, [this](std::size_t) { stop(); });
  }
  ~SamplesAhead() {
    stop();
    for (std::thread& t : workers_) t.join();
  }

  // Run k (the runs are asked for in order), for the longest run `expected_steps` before it.
  RunResult take(std::uint64_t k, std::uint64_t expected_steps) {
    std::unique_lock<std::mutex> g(lock_);
    std::optional<RunResult> r;
    if (claimed_ == k) {
      ++claimed_;  // nobody has started it: make it here
    } else {
      Slot& slot = slots_[k % slots_.size()];
      changed_.wait(g, [&] { return slot.ready; });
      if (slot.error) std::rethrow_exception(slot.error);
      if (!s_.pct || slot.expected_steps == expected_steps) r = std::move(slot.run);
      slot = Slot{};
    }
    g.unlock();
    if (!r) r = sample(m_, c_, o_, s_, k, expected_steps);
    g.lock();
    taken_ = k + 1;
    known_ = std::max<std::uint64_t>(expected_steps, r->steps.size());
    changed_.notify_all();
    return std::move(*r);
  }

 private:
  struct Slot {
    bool ready = false;
    RunResult run;
    std::uint64_t expected_steps = 0;
    std::exception_ptr error;
  };

  void work() {
    std::unique_lock<std::mutex> g(lock_);
    for (;;) {
      changed_.wait(g, [&] { return stopping_ || (claimed_ < s_.runs && claimed_ < taken_ + slots_.size()); });
      if (stopping_) return;
      const std::uint64_t k = claimed_++;
      const std::uint64_t expected = known_;
      g.unlock();
      Slot made;
      made.expected_steps = expected;
      try {
        made.run = sample(m_, c_, o_, s_, k, expected);
      } catch (...) {
        made.error = std::current_exception();
      }
      made.ready = true;
      g.lock();
      slots_[k % slots_.size()] = std::move(made);
      changed_.notify_all();
    }
  }

  // The workers end (after the run each may be making).
  void stop() {
    {
      std::lock_guard<std::mutex> g(lock_);
      stopping_ = true;
    }
    changed_.notify_all();
  }

  const models::Model& m_;
  const models::Config& c_;
  const RunOptions& o_;
  const SamplingSearch& s_;
  std::mutex lock_;  // guards everything below
  std::condition_variable changed_;
  std::vector<Slot> slots_;  // run k in slot k mod size, until taken
  std::uint64_t claimed_ = 0, taken_ = 0;
  std::uint64_t known_ = kShortestExpected;  // the longest run taken so far
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace

void sampling_search(const models::Model& m, const models::Config& c, const RunOptions& o, const SamplingSearch& s,
                     const std::function<bool()>& go_on, const std::function<bool(const RunResult&)>& take) {
  std::optional<SamplesAhead> ahead;
  if (s.jobs > 1) ahead.emplace(m, c, o, s);
  std::uint64_t expected_steps = kShortestExpected;
  for (std::uint64_t k = 0; k < s.runs; ++k) {
    if (!go_on()) return;
    const RunResult r = ahead ? ahead->take(k, expected_steps) : sample(m, c, o, s, k, expected_steps);
    expected_steps = std::max<std::uint64_t>(expected_steps, r.steps.size());
    if (!take(r)) return;
  }
}

}  // namespace scopesim
