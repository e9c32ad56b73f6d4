// Ctrl-C during a search: the first SIGINT asks the search to stop before its
// next run (it ends as at a time limit, stopped by "interrupt", and its report
// prints with what it found); a second one ends the process as usual.
#pragma once
#include <atomic>
#include <cstddef>
#include <string_view>

namespace scopesim::cli {

// Installs the SIGINT handler for its lifetime (one at a time), unless
// SIGINT is ignored, as in a script's background job.
class Interrupt {
 public:
  Interrupt();
  ~Interrupt();
  Interrupt(const Interrupt&) = delete;
  Interrupt& operator=(const Interrupt&) = delete;
  // For ExploreOptions::interrupt.
  const std::atomic<bool>* flag() const;
  bool requested() const;

 private:
  bool installed_ = false;  // (not when SIGINT was ignored already)
};

// After an interrupt that left work out: "scopesim: interrupted: DONE of
// TOTAL WHAT, the rest not run" on stderr, after what stdout holds so far
// (WHAT: "test(s) run", "model(s) compared", ...).
void report_left_out(std::size_t done, std::size_t total, std::string_view what);

}  // namespace scopesim::cli
