#include "models/model.hpp"

#include <algorithm>

namespace scopesim::models {

std::string misfit(const Model& m, const Config& c) {
  for (const auto& [name, value] : c.params) {
    const auto declared = [&name](const Parameter& p) { return p.name == name; };
    if (std::any_of(m.parameters.begin(), m.parameters.end(), declared)) continue;
    std::string takes;
    for (const Parameter& p : m.parameters) takes += (takes.empty() ? "" : ", ") + p.name;
    return "no parameter '" + name + "' (the model takes " + (takes.empty() ? "none" : takes) + ")";
  }
  return m.fits != nullptr ? m.fits(c) : "";
}

}  // namespace scopesim::models
