#include "sim/core/source_position.hpp"

#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <future>
#include <map>
#include <mutex>
#include <system_error>

namespace scopesim {

namespace {

// "file:line" of the code at return address `pc` (the call lies just before
// it): its row of the line table, the innermost of the functions inlined
// there. Read with elfutils from the debug information of the process's
// modules (the executable, its libraries), reported once; "?" without it.
// One caller at a time: a libdwfl session is not for concurrent use.
std::string resolve(std::uintptr_t pc) {
  static std::mutex lock;
  std::lock_guard<std::mutex> g(lock);
  static Dwfl* const session = [] {
    static const Dwfl_Callbacks callbacks{dwfl_linux_proc_find_elf, dwfl_standard_find_debuginfo, nullptr, nullptr};
    Dwfl* d = dwfl_begin(&callbacks);
    if (d == nullptr) return d;
    dwfl_report_begin(d);
    if (dwfl_linux_proc_report(d, getpid()) != 0 || dwfl_report_end(d, nullptr, nullptr) != 0) {
      dwfl_end(d);
      return static_cast<Dwfl*>(nullptr);
    }
    return d;
  }();
  if (session == nullptr) return "?";
  const Dwarf_Addr at = pc - 1;
  Dwfl_Module* module = dwfl_addrmodule(session, at);
  Dwfl_Line* row = module != nullptr ? dwfl_module_getsrc(module, at) : nullptr;
  int line = 0;
  const char* file = row != nullptr ? dwfl_lineinfo(row, nullptr, &line, nullptr, nullptr, nullptr) : nullptr;
  return file != nullptr && line > 0 ? source_path(file) + ":" + std::to_string(line) : "?";
}

}  // namespace

std::string describe(const Where& w) {
  if (w.file != nullptr) return source_path(w.file) + ":" + std::to_string(w.line);
  if (w.pc == 0) return "?";
  // Every run of a racy model describes its findings again, on each thread
  // of a parallel search: each thread keeps what it has described, and only a
  // position new to it looks in the shared cache, under its lock.
  thread_local std::map<std::uintptr_t, std::string> mine;
  if (auto it = mine.find(w.pc); it != mine.end()) return it->second;
  static std::mutex lock;
  static std::map<std::uintptr_t, std::string> cache;
  {
    std::lock_guard<std::mutex> g(lock);
    if (auto it = cache.find(w.pc); it != cache.end()) return mine.emplace(w.pc, it->second).first->second;
  }
  // A position new to the process is resolved on a thread of its own, which
  // no slice limit stops: the caller, mostly a simulated thread's fiber, only
  // waits (in the C++ runtime, where FiberPool puts a stop off in a dynamic
  // build), and holds no lock of the resolver's should it be stopped all the same.
  std::string text;
  try {
    text = std::async(std::launch::async, resolve, w.pc).get();
  } catch (const std::system_error&) {
    text = "?";  // (no thread to be had)
  }
  {
    std::lock_guard<std::mutex> g(lock);
    cache.emplace(w.pc, text);
  }
  return mine.emplace(w.pc, std::move(text)).first->second;
}

}  // namespace scopesim
