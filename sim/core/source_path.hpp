// A source file as reports name it: the part of its path from the
// repository's top folders on ("models/publish/publish.cpp"). Header-only:
// the CUDA build of the models uses it too.
#pragma once
#include <string>
#include <string_view>

namespace scopesim {

inline std::string source_path(std::string_view file) {
  for (std::string_view top : {"/models/", "/sim/", "/tests/", "/gpu/", "/docs/"}) {
    const auto at = file.rfind(top);
    if (at != std::string_view::npos) return std::string(file.substr(at + 1));
  }
  return std::string(file);
}

}  // namespace scopesim
