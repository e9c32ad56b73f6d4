#include "sim/core/source_position.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <string_view>

namespace scopesim {

namespace {

std::string resolve(std::uintptr_t pc) {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(pc), &info) == 0 || info.dli_fname == nullptr) return "?";
  // The return address points after the call; step back into it.
  const std::uintptr_t offset = pc - 1 - reinterpret_cast<std::uintptr_t>(info.dli_fbase);
  char cmd[1024];
  std::snprintf(cmd, sizeof cmd, "addr2line -e '%s' 0x%lx 2>/dev/null", info.dli_fname,
                static_cast<unsigned long>(offset));
  std::string out;
  if (FILE* p = popen(cmd, "r")) {
    char buf[1024];
    if (std::fgets(buf, sizeof buf, p)) out = buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  const auto paren = out.find(" (");
  if (paren != std::string::npos) out.resize(paren);
  if (out.empty() || out[0] == '?') return "?";
  return source_path(out);
}

}  // namespace

std::string describe(const Where& w) {
  if (w.file != nullptr) return source_path(w.file) + ":" + std::to_string(w.line);
  if (w.pc == 0) return "?";
  // Every run of a racy model describes its findings again, on each thread
  // of a parallel search: each thread keeps what it has described, and only a
  // position new to it takes the lock of the shared cache (where resolving a
  // new one runs addr2line once).
  thread_local std::map<std::uintptr_t, std::string> mine;
  if (auto it = mine.find(w.pc); it != mine.end()) return it->second;
  static std::mutex lock;
  static std::map<std::uintptr_t, std::string> cache;
  std::string text;
  {
    std::lock_guard<std::mutex> g(lock);
    auto it = cache.find(w.pc);
    if (it == cache.end()) it = cache.emplace(w.pc, resolve(w.pc)).first;
    text = it->second;
  }
  return mine.emplace(w.pc, std::move(text)).first->second;
}

}  // namespace scopesim
